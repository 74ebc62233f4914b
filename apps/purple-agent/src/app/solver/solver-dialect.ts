import {
  DIALECTS,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type A2aClientFactory,
  type DialectName,
  type SolverExit,
  type TaskEvents,
} from '@arvo-rca/a2a-protocol';
import type { TaskState } from '@a2a-js/sdk';
import type { Submits } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';
import { CallbackDialect } from './callback-dialect';
import { ConversationDialect } from './conversation-dialect';
import { REPLY_TURN_DIALECT, shellTurnDialect } from './turn-dialects';

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

export interface DialectSettings {
  /** The assessor to call back; none when the assessor drives the conversation. */
  greenUrl: string | undefined;
  answerDeadlineMs: number;
  peers: A2aClientFactory;
}

/**
 * The dialects this agent answers, as its card's skill names them for an assessor to choose from:
 * terminal-bench-shell-v1 always, and the callback dialect when it knows its assessor's URL, the reply dialect when not.
 */
export function answeredDialects(greenUrl: string | undefined): DialectName[] {
  return [greenUrl ? DIALECTS.callback : DIALECTS.reply, TERMINAL_BENCH_SHELL];
}

/**
 * The dialect of a run, from the first message of its context: terminal-bench-shell-v1 when that message
 * is its task envelope; otherwise the callback dialect when this agent knows its assessor's URL, the reply dialect when not.
 */
export function openDialect(events: TaskEvents, settings: DialectSettings): SolverDialect {
  const first = events.userText();
  const envelope = parseShellMessage(first);
  if (envelope?.kind === 'task')
    return new ConversationDialect(events, envelope.instruction, shellTurnDialect(envelope.instruction), settings.answerDeadlineMs);
  if (settings.greenUrl) return new CallbackDialect(events, first, settings.peers.peer(settings.greenUrl), settings.answerDeadlineMs);
  return new ConversationDialect(events, first, REPLY_TURN_DIALECT, settings.answerDeadlineMs);
}
