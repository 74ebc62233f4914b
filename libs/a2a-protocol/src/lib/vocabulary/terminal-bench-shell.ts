// terminal-bench-shell-v1, the assessor–solver dialect of AgentBeats' terminal-bench assessor: each message is
// one JSON object as the text of an A2A message (or of an artifact).
//   assessor → solver  {"kind":"task","protocol":"terminal-bench-shell-v1","instruction":"…"}, first, on a new context
//   solver → assessor  {"kind":"exec_request","command":"…","timeout":30}   one command, timeout in seconds
//   assessor → solver  {"kind":"exec_result","exit_code":0,"stdout":"…","stderr":"…"}
//   solver → assessor  {"kind":"final","output":…}                         the end of the solver's work
// Every solver turn is an A2A task of its own on the context, and must end `completed`.

import { isRecord } from '@arvo-rca/common';

export const TERMINAL_BENCH_SHELL = 'terminal-bench-shell-v1';

interface ShellTask {
  kind: 'task';
  protocol: typeof TERMINAL_BENCH_SHELL;
  instruction: string;
}

export interface ExecRequest {
  kind: 'exec_request';
  command: string;
  /** Seconds; see clampExecTimeout. */
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

/** The timeout of a command whose request names none (or names one that is no whole number of seconds). */
export const DEFAULT_EXEC_TIMEOUT_S = 30;
/** The longest a solver may ask for, whatever the assessor allows. */
const MAX_EXEC_TIMEOUT_S = 300;

/** One message of the dialect, or undefined for a text that is not JSON or not one of them. */
export function parseShellMessage(text: string): ShellMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value)) return undefined;
  switch (value['kind']) {
    case 'task':
      return value['protocol'] === TERMINAL_BENCH_SHELL && typeof value['instruction'] === 'string'
        ? { kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: value['instruction'] }
        : undefined;
    case 'exec_request': {
      const { command, timeout } = value;
      if (typeof command !== 'string') return undefined;
      return typeof timeout === 'number' ? { kind: 'exec_request', command, timeout } : { kind: 'exec_request', command };
    }
    case 'exec_result': {
      const { exit_code: exitCode, stdout, stderr } = value;
      if (typeof exitCode !== 'number' || !Number.isInteger(exitCode) || typeof stdout !== 'string' || typeof stderr !== 'string') return undefined;
      return { kind: 'exec_result', exit_code: exitCode, stdout, stderr };
    }
    case 'final':
      return { kind: 'final', output: value['output'] };
    default:
      return undefined;
  }
}

export function formatShellMessage(message: ShellMessage): string {
  return JSON.stringify(message);
}

/**
 * The seconds a requested command may run: the request's whole number of seconds, DEFAULT_EXEC_TIMEOUT_S
 * when it names none or no whole number, clamped to 1..min(300, maxS).
 */
export function clampExecTimeout(requested: unknown, maxS: number): number {
  const wanted = typeof requested === 'number' && Number.isInteger(requested) ? requested : DEFAULT_EXEC_TIMEOUT_S;
  return Math.max(1, Math.min(wanted, MAX_EXEC_TIMEOUT_S, maxS));
}
