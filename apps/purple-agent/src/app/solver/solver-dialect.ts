import type { SolverExit, TaskEvents } from '@arvo-rca/a2a-protocol';
import type { TaskState } from '@a2a-js/sdk';
import type { Submits } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';

/** Where a run reports: its step lines, and its one final status. */
export interface RunReporter {
  progress(text: string): void;
  end(state: TaskState, text: string, exit?: SolverExit): void;
}

/**
 * How one run talks with its assessor: where its commands go (the environment), where it reports, and
 * how the assessor's later messages on the context reach it. The executor and the loop see only this.
 */
export interface SolverDialect extends TaskEnvironment, RunReporter {
  /** The task as the assessor gave it. */
  readonly description: string;
  readonly submits: Submits;
  /** How the run talks with its assessor, for the log. */
  readonly dialectNote: string;
  /** Whether the run waits for the assessor's next message on the context. */
  readonly awaitingAnswer: boolean;
  /** The assessor's next message on the context, carried on a new call. */
  answer(text: string, events: TaskEvents): void;
  /** Settles when the open call has said what it had to: the next command, or the run's end. */
  turnClosed(): Promise<void>;
  /** Ends the wait for an answer, if any: the run then ends with an environment error. */
  abandon(reason: string): void;
}
