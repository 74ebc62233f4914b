import { clampExecTimeout, formatShellMessage, parseShellMessage, parseSolverExit, TERMINAL_BENCH_SHELL } from '@arvo-rca/a2a-protocol';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import type { SolverDialect, SolverStep, SolverTurnEnd } from './solver-dialect';

// The exit code of a command the sandbox refused to run, as a shell answers a command it cannot execute.
const REFUSED_EXIT_CODE = 126;

/**
 * terminal-bench-shell-v1, the dialect of AgentBeats' terminal-bench assessor (RDI-Foundation/terminal-bench-green,
 * src/agent.py 415-479): the task goes as the `task` envelope on a new conversation; each `exec_request` runs
 * in the sandbox, its timeout clamped to 1..min(300 s, the green agent's COMMAND_TIMEOUT_S), and its result goes
 * back as `exec_result` on the same context, each turn a task of its own; `final`, or a reply that is not
 * JSON, ends the solver's turn and the task is scored (agent.py 452-453, 486-490). Any other JSON fails the
 * solver's side, as the original raises on it (agent.py 455-460, 491-492).
 */
export class ShellDialect implements SolverDialect {
  readonly name = TERMINAL_BENCH_SHELL;
  readonly onTaskContext = false;

  constructor(private readonly commandTimeoutS: number) {}

  opening(description: string): string {
    return formatShellMessage({ kind: 'task', protocol: TERMINAL_BENCH_SHELL, instruction: description });
  }

  read({ text }: SolverTurnEnd): SolverStep {
    const message = parseShellMessage(text);
    // A blank command is no request (agent.py 458-460).
    if (message?.kind === 'exec_request' && message.command.trim())
      return { kind: 'execute', command: message.command, timeoutS: clampExecTimeout(message.timeout, this.commandTimeoutS) };
    // A final whose output is a solver's exit (ours: exit status, usage, trajectory) tells how its run ended.
    if (message?.kind === 'final') {
      const exit = parseSolverExit([message.output]);
      return exit ? { kind: 'finished', exit } : { kind: 'finished' };
    }
    if (message === undefined && !isJson(text)) return { kind: 'finished' };
    return { kind: 'failed', reason: `the solver's reply is no ${TERMINAL_BENCH_SHELL} exec_request or final: ${text.slice(0, 200)}` };
  }

  result(outcome: ExecOutcome): string {
    if (outcome.kind === 'rejected') return formatShellMessage({ kind: 'exec_result', exit_code: REFUSED_EXIT_CODE, stdout: '', stderr: outcome.reason });
    // The sandbox merges the two streams into `output`; a timeout's reason is the command's error.
    return formatShellMessage({ kind: 'exec_result', exit_code: outcome.returncode, stdout: outcome.output, stderr: outcome.timedOut ?? '' });
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
