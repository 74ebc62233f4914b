import { DIALECTS, parseShellMessage, TERMINAL_BENCH_SHELL, type DialectName } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import { ReplyDialect } from './reply-dialect';
import { ShellDialect } from './shell-dialect';
import type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';

/**
 * The dialect of a solver that neither the request nor its card names, found from its first answer: the
 * task opens in the reply dialect (which also serves a solver that calls back). A first answer that is a
 * terminal-bench-shell-v1 `exec_request` or `final` (as a terminal-bench solver answers any text, our
 * task's echoed in it) means that dialect: the conversation starts again in it, nothing of the first
 * answer run. Any other first answer means the reply dialect, read as such from then on. `found` hears which;
 * a task whose solver calls a command back before its first reply is a reply-dialect one for good.
 */
export class FirstAnswerDialect implements SolverDialect {
  readonly name = DIALECTS.reply;
  readonly onTaskContext = true;
  private readonly reply = new ReplyDialect();
  private answered = false;

  constructor(
    private readonly commandTimeoutS: number,
    private readonly found: (dialect: DialectName) => void,
    /** Whether a command has run on the task's context already (a solver calling back). */
    private readonly calledBack: () => boolean,
  ) {}

  opening(description: string): string {
    return this.reply.opening(description);
  }

  read(turn: SolverTurnEnd): SolverStep {
    if (this.answered) return this.reply.read(turn);
    this.answered = true;
    const message = parseShellMessage(turn.text);
    if ((message?.kind === 'exec_request' || message?.kind === 'final') && !this.calledBack()) {
      this.found(TERMINAL_BENCH_SHELL);
      return { kind: 'restart', dialect: new ShellDialect(this.commandTimeoutS) };
    }
    this.found(DIALECTS.reply);
    return this.reply.read(turn);
  }

  /** The conversation is over: a solver that called commands back and never replied spoke the reply dialect's vocabulary. */
  over(): void {
    if (this.answered || !this.calledBack()) return;
    this.answered = true;
    this.found(DIALECTS.reply);
  }

  result(outcome: ExecOutcome): string {
    return this.reply.result(outcome);
  }
}
