// Purple → green, about a running task: `execute: <command>` (one command per message) or
// `[TASK FINISHED]`. Anything else is chatter the green agent answers with a hint.
import { LOC_JSON_PATH } from '@arvo-rca/common';

export const EXECUTE_PREFIX = 'execute:';
export const TASK_FINISHED = '[TASK FINISHED]';

export type SolverMessage = { kind: 'execute'; command: string } | { kind: 'finished' } | { kind: 'other'; text: string };

export function formatExecute(command: string): string {
  return `${EXECUTE_PREFIX} ${command}`;
}

/**
 * What a solver's message asks for. The command is everything after the first `execute:` (it may
 * span lines), trimmed; it may be empty, which the green agent rejects. When a message holds both
 * markers, the earlier one wins, so `execute: echo [TASK FINISHED]` is a command.
 */
export function parseSolverMessage(text: string): SolverMessage {
  const execute = text.indexOf(EXECUTE_PREFIX);
  const finished = text.indexOf(TASK_FINISHED);
  if (execute >= 0 && (finished < 0 || execute < finished)) {
    return { kind: 'execute', command: text.slice(execute + EXECUTE_PREFIX.length).trim() };
  }
  if (finished >= 0) return { kind: 'finished' };
  return { kind: 'other', text };
}

/** The longest reply a solver's turn may be: one shell command, however long its heredoc, is far below it. */
export const MAX_SOLVER_REPLY_CHARS = 200_000;

type SolverReply = { kind: 'execute'; command: string } | { kind: 'finished' } | { kind: 'none'; problem: string };

const COMMAND_LINE = /^execute:/gm;
const FIRST_COMMAND_LINE = /^execute:/m;

/**
 * What a solver's reply asks for when the assessor drives the conversation (the reply dialect): exactly one
 * action, or a problem to tell it about. A command is read only where a reply-dialect solver puts it: from a
 * line that starts with `execute:` (the reply's first, or one after a thought) to the reply's end. Never
 * from inside a line (a quote of the task's text), nor from a reply that is JSON as a whole (a
 * terminal-bench message, which may echo the task's text): such a reply holds no action. `[TASK FINISHED]`
 * is read anywhere in the text; the earlier of the two wins. Several lines starting with `execute:`
 * (outside a heredoc, whose body may hold anything), an empty command, no action at all, or a reply of
 * megabytes are problems.
 */
export function parseSolverReply(text: string): SolverReply {
  if (text.length > MAX_SOLVER_REPLY_CHARS)
    return { kind: 'none', problem: `your reply is ${text.length} characters long; one command is at most ${MAX_SOLVER_REPLY_CHARS}` };
  if (isJsonData(text)) return { kind: 'none', problem: 'your reply is JSON, which holds no action' };
  const execute = FIRST_COMMAND_LINE.exec(text)?.index ?? -1;
  const finished = text.indexOf(TASK_FINISHED);
  if (finished >= 0 && (execute < 0 || finished < execute)) return { kind: 'finished' };
  if (execute < 0) return { kind: 'none', problem: text.trim() ? 'your reply holds no action' : 'your reply was empty' };
  const command = text.slice(execute + EXECUTE_PREFIX.length).trim();
  const commands = command.includes('<<') ? 1 : (text.match(COMMAND_LINE)?.length ?? 0);
  if (commands > 1) return { kind: 'none', problem: `your reply holds ${commands} commands; send one at a time` };
  if (!command) return { kind: 'none', problem: 'the command after "execute:" is empty' };
  return { kind: 'execute', command };
}

// A JSON object, array or string as the whole reply: data the solver sent, never an action of the reply dialect.
function isJsonData(text: string): boolean {
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed)) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

/** The correction for a reply with no single action. */
export function formatReplyCorrection(problem: string): string {
  return `Command rejected: ${problem}. Reply with exactly one command as "${EXECUTE_PREFIX} <command>", or "${TASK_FINISHED}" once ${LOC_JSON_PATH} is written.`;
}
