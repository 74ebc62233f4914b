import type { Sandbox } from '@arvo-rca/sandbox';
import type { SolverExit } from '@arvo-rca/a2a-protocol';
import type { TaskLogScope } from '@arvo-rca/task-logging';
import type { TaskProgress } from './task-progress';

/** Why a task stopped: the solver said so, its handling ended, it failed, time ran out, the agent shut down, its requester canceled it, or its writes passed the disk limit. */
export type FinishReason = 'finished' | 'solver-ended' | 'solver-failed' | 'timeout' | 'shutdown' | 'canceled' | 'disk-limit';

/** Everything one running task owns; held by TaskContextService under the task's context id. */
export class TaskContext {
  commands = 0;
  failedCommands = 0;
  /** How the solver said its run ended, when it said so on its stream. */
  solverExit: SolverExit | undefined;
  /** When the solver got the task (`handedOver`): its time counts from there. */
  private handedOverAt = Date.now();
  private resolveFinish!: (reason: FinishReason) => void;
  /** Settles once, with the first reason the task was given to stop. */
  readonly finishing: Promise<FinishReason> = new Promise((resolve) => (this.resolveFinish = resolve));
  /** Aborts the hand-over stream to the solver when the task ends another way. */
  readonly handover = new AbortController();
  private rejectBroken!: (error: Error) => void;
  /** Rejects once the task cannot go on (its engine stopped answering); never settles otherwise. */
  readonly broken: Promise<never> = new Promise<never>((_resolve, reject) => (this.rejectBroken = reject));

  constructor(
    readonly contextId: string,
    readonly sandbox: Sandbox,
    /** Lines logged inside it land in the task's own log file. */
    readonly logScope: TaskLogScope,
    /** Whoever started the task hears of each command run for the solver. */
    readonly progress: TaskProgress,
  ) {
    this.broken.catch(() => undefined); // Heard through the hand-over's race, if at all.
  }

  /** The task fails now with `error`, whichever way the solver talks to the green agent. */
  break(error: Error): void {
    this.rejectBroken(error);
  }

  finish(reason: FinishReason): void {
    this.resolveFinish(reason);
  }

  /** The task goes to the solver now; a sandbox made ahead of the task's turn counts no time before. */
  handedOver(): void {
    this.handedOverAt = Date.now();
  }

  elapsedSeconds(): number {
    return (Date.now() - this.handedOverAt) / 1000;
  }
}
