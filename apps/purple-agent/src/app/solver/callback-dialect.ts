import { formatSolverExit, type A2aPeer, type SolverExit, type TaskEvents } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import type { TaskState } from '@a2a-js/sdk';
import type { Submits } from '../agent/agent-types';
import { GreenTaskEnvironment } from './green-task-environment';
import type { SolverDialect } from './solver-dialect';

/**
 * The callback dialect, for an assessor that waits for its solver to call back (as the original's does): the
 * commands go to the green agent as messages of their own, and the run reports on the one call that brought
 * the task, which stays open until the run ends.
 */
export class CallbackDialect implements SolverDialect {
  readonly submits: Submits = 'loc.json';
  readonly awaitingAnswer = false;
  readonly dialectNote: string;
  private readonly environment: GreenTaskEnvironment;
  private closeCall!: () => void;
  private readonly call = new Promise<void>((resolve) => (this.closeCall = resolve));

  constructor(
    private readonly events: TaskEvents,
    readonly description: string,
    green: A2aPeer,
    deadlineMs: number,
  ) {
    this.environment = new GreenTaskEnvironment(green, events.contextId, deadlineMs);
    this.dialectNote = `calling back ${green.url}`;
  }

  execute(command: string): Promise<CommandResult> {
    return this.environment.execute(command);
  }

  finish(): Promise<void> {
    return this.environment.finish();
  }

  progress(text: string): void {
    this.events.progress(text);
  }

  end(state: TaskState, text: string, exit?: SolverExit): void {
    this.events.end(state, text, exit && formatSolverExit(exit));
    this.closeCall();
  }

  answer(): void {
    throw new Error('a run that calls back takes no messages on its context');
  }

  turnClosed(): Promise<void> {
    return this.call;
  }

  // A canceled run stops at its next command (CancellableEnvironment); no wait here to end.
  abandon(): void {
    return undefined;
  }
}
