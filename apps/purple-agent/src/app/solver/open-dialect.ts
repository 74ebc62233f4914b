// Which dialect a run speaks, from the first message of its context and this agent's configuration.
import { DIALECTS, parseShellMessage, TERMINAL_BENCH_SHELL, type A2aClientFactory, type DialectName, type TaskEvents } from '@arvo-rca/a2a-protocol';
import { CallbackDialect } from './callback-dialect';
import { ConversationDialect } from './conversation-dialect';
import type { SolverDialect } from './solver-dialect';
import { REPLY_TURN_DIALECT, shellTurnDialect } from './turn-dialects';

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
