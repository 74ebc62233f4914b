import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import {
  IsArray,
  ArrayNotEmpty,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateIf,
  validateSync,
  type ValidationError,
} from 'class-validator';
import {
  ASSESSMENT_CONFIG_KEYS,
  DIALECT_NAMES,
  MAX_CONCURRENCY,
  readResumeConfig,
  type AssessmentConfigBody,
  type DialectName,
  type ResumeRequest,
} from '@arvo-rca/a2a-protocol';
import { isRecord, type TaskRef } from '@arvo-rca/common';
import type { Shard, TaskDraw } from '@arvo-rca/results';
import { MAX_SEED, SAMPLE_MODES, type SampleMode } from '@arvo-rca/task-lists';
import { readConfig, type ConfigReading } from './assessment-config';
import { readParticipants } from './assessment-participants';
import { chooseTasks, type TaskConfigValues, type TaskSources } from './assessment-tasks';

const SEED_MESSAGE = `must be a whole number from 0 to ${MAX_SEED}`;
const LIST_MESSAGE = 'must name a task list (such as rcabench-clean-181) or a list file';

// The validation of AssessmentConfigBody (the request's shape, in the shared vocabulary): each key typed as
// there, `task_ids` left unknown until its ids are read. Messages say what is wrong; the path of the key (top level or nested) goes in front of them. The
// validator stops at a key's first problem, checking the decorators from the bottom up.
class TaskConfig implements TaskConfigValues, Omit<AssessmentConfigBody, 'task_ids'> {
  // Required unless a task list file names the tasks.
  @ValidateIf((config: TaskConfig) => config.task_ids !== undefined || config.task_ids_file === undefined)
  @ArrayNotEmpty({ message: 'must name at least one task' })
  @IsArray({ message: 'must be a list of task ids' })
  task_ids?: unknown[];

  /** A named task list (`rcabench-clean-181`), one of the original's paths for one, or a list file on this side. */
  @IsOptional()
  @IsNotEmpty({ message: LIST_MESSAGE })
  @IsString({ message: LIST_MESSAGE })
  task_ids_file?: string;

  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_tasks?: number;

  /** The seed of the draw of num_tasks tasks; one is drawn (and recorded) when none is given. */
  @IsOptional()
  @Max(MAX_SEED, { message: SEED_MESSAGE })
  @Min(0, { message: SEED_MESSAGE })
  @IsInt({ message: SEED_MESSAGE })
  seed?: number;

  /** How num_tasks tasks are taken: drawn with the seed (`random`, the default) or the list's first ones (`head`). */
  @IsOptional()
  @IsIn(SAMPLE_MODES, { message: `must be one of ${SAMPLE_MODES.join(', ')}` })
  sample?: SampleMode;

  /** The leaderboard CI's cap, written flat beside the shard keys: it cuts the whole list (after num_tasks drew from it) before it is split. */
  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_instances?: number;

  @IsOptional()
  @Max(MAX_CONCURRENCY, { message: `must be at most ${MAX_CONCURRENCY}` })
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  concurrency?: number;

  @IsOptional()
  @Min(0, { message: 'must not be negative' })
  @IsInt({ message: 'must be a whole number' })
  shard_index?: number;

  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_shards?: number;

  /** The dialect to speak to the solver in; `solver_protocol` is the wire's word for it. */
  @IsOptional()
  @IsIn(DIALECT_NAMES, { message: `must be one of ${DIALECT_NAMES.join(', ')}` })
  solver_protocol?: DialectName;

  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  send_record?: boolean;
}

/** A validated request: this shard's tasks, each of a configured source, in the list's order. */
export interface AssessmentRequest {
  purpleUrl: string;
  tasks: TaskRef[];
  concurrency: number;
  shard: Shard;
  /** Config keys the request holds that the assessment does not use (`foo`, `assessment_config.bar`). */
  ignoredConfigKeys: string[];
  /** The dialect the solver is to be spoken to in, when the request names one; else its card's, else its first answer's. */
  dialect?: DialectName;
  /** How the tasks were drawn from a longer list (num_tasks with a seed), for the record. */
  draw?: TaskDraw;
  /** Send the run record's files as they are written (`config.send_record`), for a runner that keeps the record. */
  sendRecord: boolean;
}

export type AssessmentParse =
  { kind: 'request'; request: AssessmentRequest } | { kind: 'resume'; resume: ResumeRequest } | { kind: 'invalid'; problems: string[] } | { kind: 'none' };

/**
 * Whether a message is an assessment request (JSON with `participants` or `config`), and if so, is it valid;
 * every problem is named. A task list the request names is read here, from this green agent's lists.
 */
export async function parseAssessmentRequest(text: string, data: unknown[], sources: TaskSources): Promise<AssessmentParse> {
  const body = data.find(isRecord) ?? parseJsonObject(text);
  if (typeof body === 'string') return { kind: 'invalid', problems: [body] };
  if (!body || !('participants' in body || 'config' in body)) return { kind: 'none' };
  const { solverUrl, problems } = readParticipants(body['participants']);
  if (!isRecord(body['config'])) return { kind: 'invalid', problems: [...problems, 'config must be an object with task_ids or task_ids_file'] };
  if ('resume' in body['config']) return readResumeConfig(body['config'], solverUrl, problems);
  const reading = readConfig(body['config']);
  const config = plainToInstance(TaskConfig, reading.values);
  const errors = validateSync(config, { stopAtFirstError: true });
  problems.push(...errors.flatMap((error) => messagesOf(error).map((message) => `${pathOf(error.property, reading)} ${message}`)));
  problems.push(...shardProblems(config, reading));
  const shard: Shard = { index: config.shard_index ?? 0, count: config.num_shards ?? 1 };
  const choice = await chooseTasks(config, new Set(errors.map((error) => error.property)), reading, shard, sources);
  if ('problems' in choice) problems.push(...choice.problems);
  if (problems.length > 0 || solverUrl === undefined || 'problems' in choice) return { kind: 'invalid', problems };
  return {
    kind: 'request',
    request: {
      purpleUrl: solverUrl,
      tasks: choice.tasks,
      concurrency: config.concurrency ?? 1,
      shard,
      ignoredConfigKeys: reading.ignored,
      sendRecord: config.send_record ?? false,
      ...(config.solver_protocol === undefined ? {} : { dialect: config.solver_protocol }),
      ...(choice.draw ? { draw: choice.draw } : {}),
    },
  };
}

/** The index must be below the count (the default count is 1); each value's own problems are named by the validator. */
function shardProblems(config: TaskConfig, reading: ConfigReading): string[] {
  const { shard_index: index, num_shards: count } = config;
  const valid = (value: number | undefined, min: number): boolean => value === undefined || (Number.isInteger(value) && value >= min);
  if (index === undefined || !valid(index, 0) || !valid(count, 1) || index < (count ?? 1)) return [];
  const countText = count === undefined ? '1, as it is not given' : String(count);
  return [`${reading.path('shard_index')} (${index}) must be below ${reading.path('num_shards')} (${countText})`];
}

function pathOf(property: string, reading: ConfigReading): string {
  const key = ASSESSMENT_CONFIG_KEYS.find((known) => known === property);
  return key ? reading.path(key) : `config.${property}`;
}

function messagesOf(error: ValidationError): string[] {
  return [...Object.values(error.constraints ?? {}), ...(error.children ?? []).flatMap(messagesOf)];
}

/** The JSON object a text holds; a string saying why when it looks like JSON but is not. */
function parseJsonObject(text: string): Record<string, unknown> | string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch (error) {
    return `the request is not valid JSON: ${(error as Error).message}`;
  }
}
