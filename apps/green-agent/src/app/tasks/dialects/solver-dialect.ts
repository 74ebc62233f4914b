import type { DialectName, PeerTaskState, SolverExit } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';

/** What the solver's turn ended with: its state, and its reply read from its status message and its artifacts. */
export interface SolverTurnEnd {
  /** `replied`: the solver answered with a message, not a task. */
  state: PeerTaskState | 'replied';
  text: string;
}

/** What a turn asks of the conversation, in any dialect. */
export type SolverStep =
  /** Run this command in the sandbox, within `timeoutS` when the solver asked for a time. */
  | { kind: 'execute'; command: string; timeoutS?: number }
  /** Tell the solver this (a correction) and wait for its next turn. */
  | { kind: 'say'; message: string }
  /** The solver says the task is done: it is scored. `exit`: how its run ended, when the closing message says. */
  | { kind: 'finished'; exit?: SolverExit }
  /** The solver's side has stopped; `note` says why when it is worth a line of the task's log. */
  | { kind: 'ended'; note?: string }
  /** The solver broke the dialect's rules: its side failed, for `reason`. */
  | { kind: 'failed'; reason: string }
  /**
   * The solver speaks another dialect: the conversation starts again in `dialect`, on a new conversation
   * with the solver, its opening first; nothing the solver asked for so far is run.
   */
  | { kind: 'restart'; dialect: SolverDialect };

/**
 * One dialect between the green agent and a solver: how the task goes out, how a turn's reply reads, how a
 * command's result goes back. The conversation loop drives every dialect alike; a dialect holds the
 * state of one conversation (a count of corrections), so each task gets its own.
 */
export interface SolverDialect {
  readonly name: DialectName;
  /**
   * Whether the conversation opens on the task's own context, which a solver calling back names; when
   * not, the first message names no context and the solver's answer gives the one that follows.
   */
  readonly onTaskContext: boolean;
  /** The first message: the task, as this dialect carries it. */
  opening(description: string): string;
  read(turn: SolverTurnEnd): SolverStep;
  /** The message that answers a command with what the sandbox did of it. */
  result(outcome: ExecOutcome): string;
}
