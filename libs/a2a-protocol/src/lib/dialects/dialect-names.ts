// How the two agents talk is a dialect, and these are the names of the dialects, as a solver's card, an
// assessment request (`config.solver_protocol`, the wire's word for it) and a run record give them. Both
// agents, the runner and the tests take them from here.
import { TERMINAL_BENCH_SHELL } from '../vocabulary/terminal-bench-shell';

export const DIALECTS = {
  /** Our green agent's: a command is the solver's reply to the assessor's latest message (`input-required`). */
  reply: 'reply',
  /** AgentBeats' terminal-bench assessor's: every message is one JSON object, every turn a task of its own. */
  terminalBenchShell: TERMINAL_BENCH_SHELL,
  /** The original's: the solver calls its assessor back with each command. */
  callback: 'callback',
} as const;

export type DialectName = (typeof DIALECTS)[keyof typeof DIALECTS];

/** Every dialect, in the order an assessment request's validation names them. */
export const DIALECT_NAMES: readonly DialectName[] = [DIALECTS.reply, DIALECTS.terminalBenchShell, DIALECTS.callback];

/** What a solver that declares nothing is first spoken to in. */
export const DEFAULT_DIALECT: DialectName = DIALECTS.reply;

/** The tag terminal-bench solvers carry on their skill (RDI-Foundation/terminal-bench-dummy-purple, src/server.py 26-30): they speak terminal-bench-shell-v1. */
export const TERMINAL_BENCH_TAG = 'terminal-bench';

export function isDialectName(value: unknown): value is DialectName {
  return (DIALECT_NAMES as readonly unknown[]).includes(value);
}
