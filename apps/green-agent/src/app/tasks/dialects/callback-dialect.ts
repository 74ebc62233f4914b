import { DIALECTS, parseSolverMessage } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import { formatReplyResult } from './reply-dialect';
import type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';

/**
 * The callback dialect, the original assessor's: the task description goes out once, and the solver sends its
 * commands (`execute: <command>`) and `[TASK FINISHED]` as messages of its own on the task's context, which
 * the green agent's entry answers. Its reply to the description is not read for actions: when it comes,
 * the solver's side has ended (or finished, when it says `[TASK FINISHED]` there too).
 */
export class CallbackDialect implements SolverDialect {
  readonly name = DIALECTS.callback;
  readonly onTaskContext = true;

  opening(description: string): string {
    return description;
  }

  read({ text }: SolverTurnEnd): SolverStep {
    return parseSolverMessage(text).kind === 'finished' ? { kind: 'finished' } : { kind: 'ended' };
  }

  // Never asked: no command comes in a reply. Answered as the entry answers a call-back.
  result(outcome: ExecOutcome): string {
    return formatReplyResult(outcome);
  }
}
