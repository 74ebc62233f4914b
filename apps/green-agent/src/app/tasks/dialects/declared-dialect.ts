// How the dialect of an assessment is found: the request's `config.solver_protocol` (the wire's word for
// it), else what the solver's card declares, else the solver's own first answer to an opening in the reply
// dialect (see FirstAnswerDialect); the reply dialect also serves a solver that calls back (its commands are
// answered on the task's context while its reply streams).
import { DEFAULT_DIALECT, isDialectName, TERMINAL_BENCH_SHELL, TERMINAL_BENCH_TAG, type DialectName } from '@arvo-rca/a2a-protocol';
import { isRecord } from '@arvo-rca/common';

/** Why a solver is spoken to in its dialect: the request named it, its card did, or its first answer showed it. */
export type DialectSource = 'config' | 'card' | 'first-answer';

/**
 * The dialect a card declares: a skill whose id or one of whose tags is a dialect's name
 * (`terminal-bench-shell-v1`, `reply`, `callback`), or a skill tagged `terminal-bench`, as terminal-bench
 * solvers are. A card that declares several (as ours does: it answers each by the first message) is spoken
 * to in the reply dialect when it is among them. Undefined when no skill says, or several do without reply.
 */
export function dialectDeclaredBy(card: unknown): DialectName | undefined {
  const skills = isRecord(card) && Array.isArray(card['skills']) ? card['skills'].filter(isRecord) : [];
  const names = skills.flatMap((skill) => [skill['id'], ...(Array.isArray(skill['tags']) ? skill['tags'] : [])]);
  const declared = new Set(names.map((name) => (name === TERMINAL_BENCH_TAG ? TERMINAL_BENCH_SHELL : name)).filter(isDialectName));
  if (declared.size === 1) return [...declared][0];
  return declared.has(DEFAULT_DIALECT) ? DEFAULT_DIALECT : undefined;
}

/** A solver's dialect as known before its first answer: none yet when neither the request nor the card names one. */
export interface DialectChoice {
  dialect: DialectName | undefined;
  source: DialectSource;
}

/** The dialect of an assessment as far as it is known up front: the one requested, else the card's, else its first answer's (to come). */
export function chooseDialect(requested: DialectName | undefined, card: unknown): DialectChoice {
  if (requested) return { dialect: requested, source: 'config' };
  const declared = dialectDeclaredBy(card);
  return declared ? { dialect: declared, source: 'card' } : { dialect: undefined, source: 'first-answer' };
}
