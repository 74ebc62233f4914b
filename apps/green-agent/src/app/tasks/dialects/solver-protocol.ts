// The wires a solver may speak, and how the one of an assessment is chosen: the request's
// `config.solver_protocol`, else what the solver's card declares, else reply mode, which also serves a
// solver that calls back (its commands are answered on the task's context while its reply streams).
import { TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import { isRecord } from '@arvo-rca/common';

export const SOLVER_PROTOCOLS = ['reply', TERMINAL_BENCH_SHELL, 'callback'] as const;

export type SolverProtocol = (typeof SOLVER_PROTOCOLS)[number];

/** What a solver that declares nothing is spoken to in. */
export const DEFAULT_SOLVER_PROTOCOL: SolverProtocol = 'reply';

// The tag terminal-bench solvers carry on their skill (RDI-Foundation/terminal-bench-dummy-purple, src/server.py 26-30).
const TERMINAL_BENCH_TAG = 'terminal-bench';

export function isSolverProtocol(value: unknown): value is SolverProtocol {
  return (SOLVER_PROTOCOLS as readonly unknown[]).includes(value);
}

/**
 * The protocol a card declares: a skill whose id or one of whose tags is a protocol's name
 * (`terminal-bench-shell-v1`, `reply`, `callback`), or a skill tagged `terminal-bench`, as terminal-bench
 * solvers are. A card that declares several (as ours does: it answers each by the first message) is spoken
 * to in reply mode when it is among them. Undefined when no skill says, or several do without reply mode.
 */
export function protocolDeclaredBy(card: unknown): SolverProtocol | undefined {
  const skills = isRecord(card) && Array.isArray(card['skills']) ? card['skills'].filter(isRecord) : [];
  const names = skills.flatMap((skill) => [skill['id'], ...(Array.isArray(skill['tags']) ? skill['tags'] : [])]);
  const declared = new Set(names.map((name) => (name === TERMINAL_BENCH_TAG ? TERMINAL_BENCH_SHELL : name)).filter(isSolverProtocol));
  if (declared.size === 1) return [...declared][0];
  return declared.has(DEFAULT_SOLVER_PROTOCOL) ? DEFAULT_SOLVER_PROTOCOL : undefined;
}

/** The protocol of an assessment: the one requested, else the card's, else the default. */
export function chooseSolverProtocol(requested: SolverProtocol | undefined, card: unknown): SolverProtocol {
  return requested ?? protocolDeclaredBy(card) ?? DEFAULT_SOLVER_PROTOCOL;
}
