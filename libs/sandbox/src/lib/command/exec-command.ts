import type { CommandOutput, ExecOutcome } from '../sandbox';
import { TIMED_OUT_RETURNCODE } from './command-result';

/** Marks every process of one command (environments are inherited), so that a timeout can kill them all. */
export const EXEC_MARKER = 'ARVO_RCA_EXEC';

/** Keeps tools from waiting for a terminal or a person: no pagers, no prompts, no colours, no progress bars. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: 'cat',
  LESS: '-R',
  TERM: 'dumb',
  NO_COLOR: '1',
  DEBIAN_FRONTEND: 'noninteractive',
  GIT_TERMINAL_PROMPT: '0',
  GIT_EDITOR: 'true',
  EDITOR: 'true',
  PIP_NO_INPUT: '1',
  PIP_PROGRESS_BAR: 'off',
  TQDM_DISABLE: '1',
  PYTHONUNBUFFERED: '1',
};

export interface ShellCommand {
  /** `['bash', '-lc']`, or `['sh', '-c']` where there is no bash. */
  shell: readonly string[];
  command: string;
  timeoutS: number;
  killAfterS: number;
  /** Whether the sandbox has coreutils' `timeout`; without it only the host deadline applies. */
  useTimeout: boolean;
}

/**
 * The argv of one command: stdin from /dev/null, stderr into stdout (one pipe keeps their true order),
 * under `timeout --kill-after`, which signals the command's whole process group.
 */
export function shellCommandArgv(command: ShellCommand): string[] {
  return ['sh', '-c', 'exec "$@" </dev/null 2>&1', 'arvo-exec', ...shellCommandPrefix(command), command.command];
}

/** The argv before the command text: the time limit, then the shell. */
export function shellCommandPrefix(command: Omit<ShellCommand, 'command'>): string[] {
  const limit = command.useTimeout ? ['timeout', `--kill-after=${command.killAfterS}`, String(command.timeoutS)] : [];
  return [...limit, ...command.shell];
}

export function envList(env: Readonly<Record<string, string>>): string[] {
  return Object.entries(env).map(([name, value]) => `${name}=${value}`);
}

/** How one run of a command ended, as the backend saw it. */
export interface CommandRun {
  /** Undefined when the host deadline passed first. */
  exitCode: number | undefined;
  hostDeadlineHit: boolean;
  elapsedMs: number;
  /** The command did not run: processes left by earlier commands filled the container's pids limit. */
  pidsExhausted?: boolean;
}

/**
 * `timeout` exits 124 (TERM) or 137 (KILL after the grace); a command's own 124 that ends before the
 * limit is its own business, so the elapsed time decides.
 */
export function commandOutcome(run: CommandRun, output: CommandOutput, timeoutS: number): ExecOutcome {
  const limitReached = run.elapsedMs >= timeoutS * 1000 - 100 && (run.exitCode === 124 || run.exitCode === 137);
  if (run.hostDeadlineHit) {
    return { kind: 'ran', returncode: TIMED_OUT_RETURNCODE, timedOut: `command timed out after ${timeoutS} s and did not stop; it was killed`, ...output };
  }
  if (limitReached) return { kind: 'ran', returncode: TIMED_OUT_RETURNCODE, timedOut: `command timed out after ${timeoutS} s`, ...output };
  return { kind: 'ran', returncode: run.exitCode ?? -1, ...output };
}
