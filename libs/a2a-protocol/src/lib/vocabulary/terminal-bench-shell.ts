// terminal-bench-shell-v1: the assessor–solver wire of AgentBeats' terminal-bench assessor
// (RDI-Foundation/terminal-bench-green, src/agent.py). Every message is one JSON object in a text part:
//   assessor → solver: {"kind":"task","protocol":"terminal-bench-shell-v1","instruction":"…"} on a new
//                      conversation (agent.py 427-434), then {"kind":"exec_result","exit_code":N,"stdout":"…","stderr":"…"}
//                      after each command (agent.py 471-479);
//   solver → assessor: {"kind":"exec_request","command":"…","timeout":N} (agent.py 455-465), or
//                      {"kind":"final","output":…} to end (agent.py 452-453).
// Messages are JSON text (agent.py 482-483, `json.dumps`); a solver's reply is read from its status message
// and every artifact, text parts as they are and data parts as JSON (messenger.py 84-91, 128-140).

export const TERMINAL_BENCH_SHELL = 'terminal-bench-shell-v1';

export interface ShellTask {
  kind: 'task';
  protocol: typeof TERMINAL_BENCH_SHELL;
  instruction: string;
}

export interface ExecRequest {
  kind: 'exec_request';
  command: string;
  /** Seconds the command may run; absent means DEFAULT_EXEC_TIMEOUT_S. */
  timeout?: number;
}

export interface ExecResult {
  kind: 'exec_result';
  exit_code: number;
  stdout: string;
  stderr: string;
}

export interface ShellFinal {
  kind: 'final';
  output: unknown;
}

export type ShellMessage = ShellTask | ExecRequest | ExecResult | ShellFinal;

/** The time a command gets when its request names none (agent.py 462). */
export const DEFAULT_EXEC_TIMEOUT_S = 30;
/** The longest a command may run, whatever it asks (agent.py 465). */
const MAX_EXEC_TIMEOUT_S = 300;

export function formatShellMessage(message: ShellMessage): string {
  return JSON.stringify(message);
}

/**
 * The message a text carries, or undefined when it is not JSON or not one of the four messages. The
 * original assessor reads a reply that is not JSON as `final` with the text as its output (agent.py
 * 486-490), so a caller playing the assessor ends the solver's turn on undefined from a non-JSON text.
 * A blank command is no exec_request (agent.py 458-460); a timeout that is not a number is dropped, and
 * clampExecTimeout gives the default.
 */
export function parseShellMessage(text: string): ShellMessage | undefined {
  const value = parseJson(text);
  if (!isRecord(value)) return undefined;
  switch (value['kind']) {
    case 'task':
      return value['protocol'] === TERMINAL_BENCH_SHELL && typeof value['instruction'] === 'string'
        ? { kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: value['instruction'] }
        : undefined;
    case 'exec_request':
      return parseExecRequest(value);
    case 'exec_result':
      return typeof value['exit_code'] === 'number' && typeof value['stdout'] === 'string' && typeof value['stderr'] === 'string'
        ? { kind: 'exec_result', exit_code: value['exit_code'], stdout: value['stdout'], stderr: value['stderr'] }
        : undefined;
    case 'final':
      return { kind: 'final', output: value['output'] };
    default:
      return undefined;
  }
}

/**
 * The seconds a command runs: the request's, DEFAULT_EXEC_TIMEOUT_S when it names none or no number,
 * within 1..min(300, maxS) (agent.py 462-465; maxS is the assessor's own per-command limit).
 */
export function clampExecTimeout(requested: unknown, maxS: number): number {
  const upper = Math.max(1, Math.min(MAX_EXEC_TIMEOUT_S, maxS));
  const seconds = typeof requested === 'number' && Number.isFinite(requested) ? Math.floor(requested) : DEFAULT_EXEC_TIMEOUT_S;
  return Math.min(upper, Math.max(1, seconds));
}

function parseExecRequest(value: Record<string, unknown>): ExecRequest | undefined {
  const command = value['command'];
  if (typeof command !== 'string' || !command.trim()) return undefined;
  const timeout = value['timeout'];
  return typeof timeout === 'number' ? { kind: 'exec_request', command, timeout } : { kind: 'exec_request', command };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
