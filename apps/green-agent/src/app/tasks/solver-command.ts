import type { Logger } from '@nestjs/common';
import { formatCommandRejected, formatCommandResult } from '@arvo-rca/a2a-protocol';
import { SandboxError } from '@arvo-rca/sandbox';
import type { TaskContext } from './task-context';

/** Runs one command of the solver in its task's sandbox, counts it, and answers with the reply text. */
export async function runSolverCommand(context: TaskContext, command: string, logger: Logger): Promise<string> {
  logger.log(`$ ${command}`);
  const outcome = await context.sandbox.exec(command).catch((error: unknown) => {
    // Without its engine the task cannot go on: it fails now, with the engine's reason.
    if (error instanceof SandboxError && error.code === 'ENGINE_UNAVAILABLE') context.break(error);
    throw error;
  });
  if (outcome.kind === 'rejected') return formatCommandRejected(outcome.reason);
  context.commands += 1;
  if (outcome.returncode !== 0) context.failedCommands += 1;
  context.progress({ kind: 'step', step: context.commands, command });
  logger.log(`-> ${outcome.returncode}${outcome.timedOut === undefined ? '' : ` (${outcome.timedOut})`}, ${outcome.outputBytes} bytes of output`);
  logger.debug(`output of ${command}:\n${outcome.output}`);
  return formatCommandResult(outcome);
}
