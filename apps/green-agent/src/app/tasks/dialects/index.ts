import { DIALECTS, TERMINAL_BENCH_SHELL, type DialectName } from '@arvo-rca/a2a-protocol';
import { CallbackDialect } from './callback-dialect';
import { ReplyDialect } from './reply-dialect';
import { ShellDialect } from './shell-dialect';
import type { SolverDialect } from './solver-dialect';

export { formatReplyResult, MAX_CORRECTIONS } from './reply-dialect';
export type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';
export { chooseDialect, dialectDeclaredBy, type DialectChoice, type DialectSource } from './declared-dialect';
export { describeDialect, SolverDialectChoice, type DialectOrigin, type KnownDialect } from './dialect-choice';
export { FirstAnswerDialect } from './first-answer-dialect';

/** A fresh dialect for one conversation; commands it runs get at most `commandTimeoutS`. */
export function dialectFor(name: DialectName, commandTimeoutS: number): SolverDialect {
  if (name === TERMINAL_BENCH_SHELL) return new ShellDialect(commandTimeoutS);
  return name === DIALECTS.callback ? new CallbackDialect() : new ReplyDialect();
}
