import { TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import { CallbackDialect } from './callback-dialect';
import { ReplyDialect } from './reply-dialect';
import { ShellDialect } from './shell-dialect';
import type { SolverDialect } from './solver-dialect';
import type { SolverProtocol } from './solver-protocol';

export { formatReplyResult, MAX_CORRECTIONS } from './reply-dialect';
export type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';
export {
  chooseSolverProtocol,
  isSolverProtocol,
  protocolDeclaredBy,
  SOLVER_PROTOCOLS,
  type SolverProtocol,
  type SolverProtocolChoice,
  type SolverProtocolSource,
} from './solver-protocol';
export { describeDialect, SolverDialectChoice, type DialectOrigin, type SessionProtocol } from './dialect-choice';
export { FirstAnswerDialect } from './first-answer-dialect';

/** A fresh dialect for one conversation; commands it runs get at most `commandTimeoutS`. */
export function dialectFor(protocol: SolverProtocol, commandTimeoutS: number): SolverDialect {
  if (protocol === TERMINAL_BENCH_SHELL) return new ShellDialect(commandTimeoutS);
  return protocol === 'callback' ? new CallbackDialect() : new ReplyDialect();
}
