import type { SolverExit, TaskEvents } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import type { TaskState } from '@a2a-js/sdk';
import type { Submits } from '../agent/agent-types';
import type { SolverDialect } from './solver-dialect';

/** How one assessor-driven dialect says a command, reads its answer, and says the run's end, turn by turn. */
export interface TurnDialect {
  /** What the run submits: a task of this dialect may ask for loc.json, or for anything. */
  readonly submits: Submits;
  /** Who answers, as the run's messages name it. */
  readonly assessor: string;
  /** How the run talks with its assessor, for the log. */
  readonly dialectNote: string;
  /** Says the command on the open call, and ends the call. */
  ask(events: TaskEvents, command: string): void;
  /** The assessor's answer as the command's result; throws when it is none (which ends the run). */
  read(answer: string): CommandResult;
  /** Says the run's end on the open call, and ends the call. */
  end(events: TaskEvents, state: TaskState, text: string, exit?: SolverExit): void;
}

interface Waiting {
  resolve(answer: string): void;
  reject(error: Error): void;
}

/**
 * A task whose assessor drives the conversation (the only way through AgentBeats' gateway, where a solver
 * cannot call its assessor): each command is this agent's answer to the assessor's latest message, and the
 * assessor's next message on the context is its result. One A2A call is open at a time, the one that carried
 * the assessor's latest message; it closes when the agent asks for its next result, or when the run ends.
 * The turn dialect says how each of those travels (the reply dialect, terminal-bench-shell-v1).
 */
export class ConversationDialect implements SolverDialect {
  private events: TaskEvents;
  private closeTurn!: () => void;
  private turn: Promise<void>;
  private waiting: Waiting | undefined;
  /** Whether a call is open to report on (none between a command and its answer). */
  private open = true;
  private ended = false;

  constructor(
    events: TaskEvents,
    readonly description: string,
    private readonly turns: TurnDialect,
    /** How long the agent waits for the assessor's answer to a command before its run ends. */
    private readonly answerDeadlineMs: number,
  ) {
    this.events = events;
    this.turn = this.openTurn();
  }

  get submits(): Submits {
    return this.turns.submits;
  }

  get dialectNote(): string {
    return this.turns.dialectNote;
  }

  turnClosed(): Promise<void> {
    return this.turn;
  }

  get awaitingAnswer(): boolean {
    return this.waiting !== undefined;
  }

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
    return this.turns.read(await this.ask(command));
  }

  /** The submission is said by the run's end, on the open call. */
  async finish(): Promise<void> {
    return undefined;
  }

  progress(text: string): void {
    if (this.open && !this.ended) this.events.progress(text);
  }

  end(state: TaskState, text: string, exit?: SolverExit): void {
    if (this.ended) return;
    this.ended = true;
    // A run that ends while waiting for an answer (its deadline) has no open call to say so on.
    if (this.open) this.turns.end(this.events, state, text, exit);
    this.open = false;
    this.closeTurn();
  }

  abandon(reason: string): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(new Error(reason));
  }

  private ask(command: string): Promise<string> {
    if (this.ended || this.waiting) return Promise.reject(new Error('the task is not open for another command'));
    const answer = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => this.abandon(`${this.turns.assessor} sent no answer within ${Math.round(this.answerDeadlineMs / 1000)} s`),
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
    this.turns.ask(this.events, command);
    this.open = false;
    this.closeTurn();
    return answer;
  }

  private openTurn(): Promise<void> {
    return new Promise((resolve) => (this.closeTurn = resolve));
  }
}
