// The solver's trajectory: mini-swe-agent's layout, so that its viewers read ours; our extras sit in
// `info`. The purple agent writes it, sends it with its exit, the green agent keeps it in the run record
// and the viewer reads it: one format, here.

export const TRAJECTORY_FORMAT = 'mini-swe-agent-1';

/** The most of a trajectory (as JSON text) that travels with the solver's exit and goes into a run record. */
export const MAX_TRAJECTORY_CHARS = 16 * 1024 * 1024;

export interface TrajectoryMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens and USD of one model call (null USD: the model has no known price). */
export interface TrajectoryModelCall {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  cost: number | null;
  truncated: boolean;
}

/** One command sent to the environment (its output is in the messages). */
export interface TrajectoryCommand {
  step: number;
  command: string;
  returncode: number;
  timed_out: boolean;
  output_chars: number;
  by: 'model' | 'agent';
}

/** What a trajectory summary leaves out: the whole run's counts, and the characters kept of each command. */
interface TrajectorySummaryInfo {
  steps: number;
  model_calls: number;
  messages: number;
  commands_kept: number;
  command_chars: number;
}

export interface Trajectory {
  info: {
    exit_status: string | null;
    submission: string;
    /** `instance_cost` is null when the model has no known price. */
    model_stats: { instance_cost: number | null; api_calls: number };
    /** `agent`: the loop's limits, as the solver names them. */
    config: { agent: object; model: { model_name: string }; environment: { task_id: string; context_id: string } };
    tokens: { input: number; output: number; cache_read: number; cache_write: number };
    /** Each model call, in order. */
    model_calls: TrajectoryModelCall[];
    /** Every command sent to the environment, in order. */
    commands: TrajectoryCommand[];
    /** Set in a summary (no messages, commands cut and some left out): what the whole run held. */
    summary?: TrajectorySummaryInfo;
  };
  messages: TrajectoryMessage[];
  trajectory_format: typeof TRAJECTORY_FORMAT;
}

/** The solver's trajectory as a task's record knows it: where the solver wrote it, and the document when it was sent. */
export interface SolverTrajectory {
  /** On the solver's own machine. */
  path?: string;
  document?: Trajectory;
}

// One action of a model reply: a fenced bash block.
const BASH_ACTION = /```bash\s*\n([\s\S]*?)\n```/g;

/** The commands of a model reply's bash blocks, in order (a valid reply has exactly one). */
export function bashActions(reply: string): string[] {
  return [...reply.matchAll(BASH_ACTION)].map((match) => match[1].trim());
}

/** A model reply less its bash blocks: what it thought. */
export function replyThought(reply: string): string {
  return reply.replace(BASH_ACTION, '').trim();
}
