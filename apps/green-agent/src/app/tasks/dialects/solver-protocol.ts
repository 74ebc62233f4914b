// The wires a solver may speak, and how the one of an assessment is found: the request's
// `config.solver_protocol`, else what the solver's card declares, else the solver's own first answer to a
// reply-mode opening (see FirstAnswerDialect); reply mode also serves a solver that calls back (its
// commands are answered on the task's context while its reply streams).
import { TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import { isRecord } from '@arvo-rca/common';

export const SOLVER_PROTOCOLS = ['reply', TERMINAL_BENCH_SHELL, 'callback'] as const;

export type SolverProtocol = (typeof SOLVER_PROTOCOLS)[number];

/** Why a solver is spoken to in its dialect: the request named it, its card did, or its first answer showed it. */
export type SolverProtocolSource = 'config' | 'card' | 'first-answer';

/** What a solver that declares nothing is first spoken to in. */
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

/** A solver's dialect as known before its first answer: none yet when neither the request nor the card names one. */
export interface SolverProtocolChoice {
  protocol: SolverProtocol | undefined;
  source: SolverProtocolSource;
}

/** The dialect of an assessment as far as it is known up front: the one requested, else the card's, else its first answer's (to come). */
export function chooseSolverProtocol(requested: SolverProtocol | undefined, card: unknown): SolverProtocolChoice {
  if (requested) return { protocol: requested, source: 'config' };
  const declared = protocolDeclaredBy(card);
  return declared ? { protocol: declared, source: 'card' } : { protocol: undefined, source: 'first-answer' };
}
