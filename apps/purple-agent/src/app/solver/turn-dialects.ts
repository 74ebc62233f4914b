import {
  formatExecute,
  formatSolverExit,
  parseShellMessage,
  summarizedSolverExit,
  type ExecRequest,
  type ShellFinal,
  type TaskEvents,
} from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import { TaskState } from '@a2a-js/sdk';
import { LOC_JSON_PATH } from '@arvo-rca/common';
import { commandResultOf } from './assessor-answer';
import type { TurnDialect } from './conversation-dialect';

/** The reply dialect, our green agent's: a command is an `input-required` status (`execute: <command>`) on one task that the green continues. */
export const REPLY_TURN_DIALECT: TurnDialect = {
  submits: 'loc.json',
  assessor: 'the green agent',
  dialectNote: 'replying to the green agent',
  ask: (events, command) => events.askForInput(formatExecute(command)),
  read: commandResultOf,
  end: (events, state, text, exit) => events.end(state, text, exit && formatSolverExit(exit)),
};

/**
 * terminal-bench-shell-v1: every turn is an A2A task of its own that ends `completed` (the terminal-bench
 * assessor fails the run on any other state), with the message in an artifact named `Result`, as the
 * platform's example solver answers. The run's end is `final`, whatever ended it: its output carries the
 * closing line, the exit with its usage and a bounded trajectory summary (no local path: the assessor
 * keeps the output, and the whole trajectory can run to megabytes). The task asks for loc.json when its instruction names it (our
 * green agent's task description); any other task is submitted by the model's word.
 */
export function shellTurnDialect(instruction: string): TurnDialect {
  const answer = (events: TaskEvents, message: ExecRequest | ShellFinal): void => {
    events.artifact('Result', message);
    events.end(TaskState.TASK_STATE_COMPLETED);
  };
  return {
    submits: instruction.includes(LOC_JSON_PATH) ? 'loc.json' : 'output',
    assessor: 'the assessor',
    dialectNote: 'answering a terminal-bench-shell-v1 assessor',
    ask: (events, command) => answer(events, { kind: 'exec_request', command }),
    read: execResultOf,
    end: (events, _state, text, exit) => answer(events, { kind: 'final', output: { message: text, ...(exit && summarizedSolverExit(exit)) } }),
  };
}

// stdout and stderr are one output for the model, as mini-swe-agent's environments give it.
function execResultOf(answer: string): CommandResult {
  const message = parseShellMessage(answer);
  if (message?.kind !== 'exec_result') throw new Error(`the assessor answered a command with no exec_result: ${answer.slice(0, 200)}`);
  return { returncode: message.exit_code, output: `${message.stdout}${message.stderr}` };
}
