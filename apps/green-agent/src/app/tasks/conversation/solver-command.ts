import type { Logger } from '@nestjs/common';
import { textHead } from '@arvo-rca/common';
import { SandboxError, type ExecOutcome } from '@arvo-rca/sandbox';
import { SOLVER_TEXT_LOG_BYTES } from './solver-conversation';
import type { TaskContext } from '../task-context';

/** Runs one command of the solver in its task's sandbox (within `timeoutS` when given), counts it, and gives what the sandbox did of it. */
export async function runSolverCommand(context: TaskContext, command: string, logger: Logger, timeoutS?: number): Promise<ExecOutcome> {
  const shown = textHead(command, SOLVER_TEXT_LOG_BYTES);
  logger.log(`$ ${shown}`);
  const outcome = await context.sandbox.exec(command, timeoutS === undefined ? {} : { timeoutS }).catch((error: unknown) => {
    // Without its engine the task cannot go on: it fails now, with the engine's reason.
    if (error instanceof SandboxError && error.code === 'ENGINE_UNAVAILABLE') context.break(error);
    throw error;
  });
  if (outcome.kind === 'rejected') return outcome;
  context.commands += 1;
  if (outcome.returncode !== 0) context.failedCommands += 1;
  context.progress({ kind: 'step', step: context.commands, command: shown });
  logger.log(`-> ${outcome.returncode}${outcome.timedOut === undefined ? '' : ` (${outcome.timedOut})`}, ${outcome.outputBytes} bytes of output`);
  logger.debug(`output of ${shown}:\n${outcome.output}`);
  return outcome;
}
