import { parseShellMessage, TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import { ReplyDialect } from './reply-dialect';
import { ShellDialect } from './shell-dialect';
import type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';
import type { SolverProtocol } from './solver-protocol';

/**
 * The dialect of a solver that neither the request nor its card names, found from its first answer: the
 * task opens in reply mode (which also serves a solver that calls back). A first answer that is a
 * terminal-bench-shell-v1 `exec_request` or `final` (as a terminal-bench solver answers any text, our
 * task's echoed in it) means that dialect: the conversation starts again in it, nothing of the first
 * answer run. Any other first answer means reply mode, read as such from then on. `found` hears which;
 * a task whose solver calls a command back before its first reply is a reply-mode one for good.
 */
export class FirstAnswerDialect implements SolverDialect {
  readonly protocol = 'reply';
  readonly onTaskContext = true;
  private readonly reply = new ReplyDialect();
  private answered = false;

  constructor(
    private readonly commandTimeoutS: number,
    private readonly found: (protocol: SolverProtocol) => void,
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
    this.found('reply');
    return this.reply.read(turn);
  }

  /** The conversation is over: a solver that called commands back and never replied spoke reply mode's vocabulary. */
  over(): void {
    if (this.answered || !this.calledBack()) return;
    this.answered = true;
    this.found('reply');
  }

  result(outcome: ExecOutcome): string {
    return this.reply.result(outcome);
  }
}
