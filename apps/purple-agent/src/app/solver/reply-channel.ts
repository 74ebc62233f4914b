import { formatExecute, type CommandResult, type TaskEvents } from '@arvo-rca/a2a-protocol';
import type { TaskState } from '@a2a-js/sdk';
import type { TaskEnvironment } from '../agent/task-environment';
import { commandResultOf } from './assessor-answer';

/** Where a run reports: its step lines, and its one final status. */
export interface RunReporter {
  progress(text: string): void;
  end(state: TaskState, text: string, data?: object): void;
}

interface Waiting {
  resolve(answer: string): void;
  reject(error: Error): void;
}

/**
 * Reply mode, the environment of a task when the green agent drives the conversation (the only way
 * through AgentBeats' gateway, where a solver cannot call the green agent): each command is this
 * agent's reply to the green's latest message (`input-required`, `execute: <command>`), and the green's
 * next message on the context is its result. One A2A call is open at a time, the one that carried the
 * green's latest message; it closes when the agent asks for its next result, or when the run ends.
 */
export class ReplyChannel implements TaskEnvironment, RunReporter {
  private events: TaskEvents;
  private closeTurn!: () => void;
  private turn: Promise<void>;
  private waiting: Waiting | undefined;
  /** Whether a call is open to report on (none between a command and its answer). */
  private open = true;
  private ended = false;

  constructor(
    events: TaskEvents,
    /** How long the agent waits for the green's answer to a command before its run ends. */
    private readonly answerDeadlineMs: number,
  ) {
    this.events = events;
    this.turn = this.openTurn();
  }

  /** Settles when the open call has said what it had to: the next command, or the run's end. */
  turnClosed(): Promise<void> {
    return this.turn;
  }

  /** Whether the agent waits for the green's answer to its last command. */
  get awaitingAnswer(): boolean {
    return this.waiting !== undefined;
  }

  /** The green's next message on the task: the answer the agent waits for, carried on a new call. */
  answer(text: string, events: TaskEvents): void {
    const waiting = this.waiting;
    if (!waiting) throw new Error('no command of this task waits for an answer');
    this.waiting = undefined;
    this.events = events;
    this.open = true;
    this.turn = this.openTurn();
    events.start();
    waiting.resolve(text);
  }

  async execute(command: string): Promise<CommandResult> {
    return commandResultOf(await this.ask(formatExecute(command)));
  }

  /** The submission is said by the run's final status (`[TASK FINISHED]`), on the open call. */
  async finish(): Promise<void> {
    return undefined;
  }

  progress(text: string): void {
    if (this.open && !this.ended) this.events.progress(text);
  }

  end(state: TaskState, text: string, data?: object): void {
    if (this.ended) return;
    this.ended = true;
    // A run that ends while waiting for an answer (its deadline) has no open call to say so on.
    if (this.open) this.events.end(state, text, data);
    this.open = false;
    this.closeTurn();
  }

  /** Ends the wait for an answer, if any: the run then ends with an environment error. */
  abandon(reason: string): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(new Error(reason));
  }

  private ask(text: string): Promise<string> {
    if (this.ended || this.waiting) return Promise.reject(new Error('the task is not open for another command'));
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => this.abandon(`the green agent sent no answer within ${Math.round(this.answerDeadlineMs / 1000)} s`),
        this.answerDeadlineMs,
      );
      this.waiting = {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
    this.events.askForInput(text);
    this.open = false;
    this.closeTurn();
    return answer;
  }

  private openTurn(): Promise<void> {
    return new Promise((resolve) => (this.closeTurn = resolve));
  }
}
