// Purple → green, about a running task: `execute: <command>` (one command per message) or
// `[TASK FINISHED]`. Anything else is chatter the green agent answers with a hint.

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
