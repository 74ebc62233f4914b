import { DIALECTS, formatCommandRejected, formatCommandResult, formatReplyCorrection, parseSolverReply } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';

/** How many replies in a row may hold no action before the task ends and is scored. */
export const MAX_CORRECTIONS = 3;

/**
 * The reply dialect, our own: the task description goes first; the solver answers each message with its next
 * action as its reply (`execute: <command>` in `input-required`, or `[TASK FINISHED]`), and the command's
 * result goes back as the next message of the same task and context. A reply without a single action gets
 * a correction, MAX_CORRECTIONS times in a row at most. A solver that calls back instead is served on the
 * same context meanwhile, so this dialect also serves solvers that declare nothing.
 */
export class ReplyDialect implements SolverDialect {
  readonly name = DIALECTS.reply;
  readonly onTaskContext = true;
  private corrections = 0;

  opening(description: string): string {
    return description;
  }

  read({ state, text }: SolverTurnEnd): SolverStep {
    const reply = parseSolverReply(text);
    if (reply.kind === 'finished') return { kind: 'finished' };
    if (reply.kind === 'execute') {
      this.corrections = 0;
      return reply;
    }
    // A solver that is done with the conversation (its reply completed it, without an action) has ended.
    if (state !== 'input-required') return { kind: 'ended' };
    if (++this.corrections > MAX_CORRECTIONS)
      return { kind: 'ended', note: `the solver's last ${MAX_CORRECTIONS + 1} replies held no action (${reply.problem}); the task ends` };
    return { kind: 'say', message: formatReplyCorrection(reply.problem) };
  }

  result(outcome: ExecOutcome): string {
    return formatReplyResult(outcome);
  }
}

/** A command's result as the reply and callback dialects send it: the original's text, or why it was refused. */
export function formatReplyResult(outcome: ExecOutcome): string {
  return outcome.kind === 'rejected' ? formatCommandRejected(outcome.reason) : formatCommandResult(outcome);
}
