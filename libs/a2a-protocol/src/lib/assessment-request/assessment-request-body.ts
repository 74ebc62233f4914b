// The AgentBeats assessment request as it travels, JSON in a message's data part (or its text):
// `participants` names the solver, `config` what to run. The runner and a leaderboard's CI write it, the green
// agent reads it; its keys are the wire's (`solver_protocol` is the wire's word for the dialect).
import type { SampleMode } from '@arvo-rca/task-lists';
import type { DialectName } from '../dialects/dialect-names';

/** How many tasks one green agent runs at once, at most. */
export const MAX_CONCURRENCY = 128;

/** The keys that choose a new assessment's tasks. */
export interface TaskConfigBody {
  task_ids?: string[];
  /** A named task list (`rcabench-clean-181`), one of the original's paths for one, or a list file on the green's side. */
  task_ids_file?: string;
  num_tasks?: number;
  /** The seed of the draw of num_tasks tasks; the green draws one (and records it) when none is given. */
  seed?: number;
  /** How num_tasks tasks are taken: drawn with the seed (`random`, the default) or the list's first ones (`head`). */
  sample?: SampleMode;
}

/** The config of a new assessment. */
export interface AssessmentConfigBody extends TaskConfigBody {
  /** The leaderboard CI's cap, written flat beside the shard keys: it cuts the whole list (after num_tasks drew from it) before it is split. */
  num_instances?: number;
  concurrency?: number;
  shard_index?: number;
  num_shards?: number;
  /** The dialect to speak to the solver in; else its card's, else its first answer's. */
  solver_protocol?: DialectName;
  /** Send the run record's files as they are written, for a runner that keeps the record. */
  send_record?: boolean;
}

/** The config of a resume: the record goes on with its own tasks and shard. */
export interface ResumeConfigBody {
  /** The record's id: its folder's name under `assessments/`. */
  resume: string;
  /** Also run again the tasks that failed around the solver or were cut short. */
  retry_failed?: boolean;
  /** The record's own concurrency unless given. */
  concurrency?: number;
  send_record?: boolean;
}

export interface AssessmentRequestBody<Config extends AssessmentConfigBody | ResumeConfigBody = AssessmentConfigBody | ResumeConfigBody> {
  participants: { purple_agent: string };
  config: Config;
}

// Every key of AssessmentConfigBody, in the order a reader checks them: `satisfies` keeps the list and the type one.
const CONFIG_KEY_SET = {
  task_ids: true,
  task_ids_file: true,
  num_tasks: true,
  seed: true,
  sample: true,
  num_instances: true,
  concurrency: true,
  shard_index: true,
  num_shards: true,
  solver_protocol: true,
  send_record: true,
} as const satisfies Record<keyof AssessmentConfigBody, true>;

export type AssessmentConfigKey = keyof typeof CONFIG_KEY_SET;

/** The config keys a new assessment uses; a reader names any other as ignored. */
export const ASSESSMENT_CONFIG_KEYS = Object.keys(CONFIG_KEY_SET) as readonly AssessmentConfigKey[];
