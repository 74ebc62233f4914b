import { basename } from 'node:path';
import { formatTaskCompleted } from '@arvo-rca/a2a-protocol';
import { WORKSPACE } from '@arvo-rca/common';
import type { PreparedTask } from '../task-assets';
import type { FinishReason, TaskContext } from './task-context';
import type { TaskOrder } from './task-order';
import type { TaskRunDeps } from './task-run-deps';
import { SolverConversation } from './solver-conversation';
import { DEFAULT_SOLVER_PROTOCOL, dialectFor } from './dialects';
import { runSolverCommand } from './solver-command';
import { renderTaskDescription } from './task-description';

// How long a solver that sent [TASK FINISHED] may take to end its stream, which says how its run ended.
const SOLVER_EXIT_GRACE_MS = 2_000;
const IMAGE_NOTE = 'Inside this sandbox the original build tree is also at `/src`.';

/** A task whose sandbox runs, to hand to its solver. */
export interface HandOver {
  context: TaskContext;
  prepared: PreparedTask;
  deps: TaskRunDeps;
  order: TaskOrder;
  log: (line: string) => void;
}

/**
 * Sends the task to the solver and waits for the first of: finished, solver done, time limit. The task's
 * time, and its limit, start here.
 */
export async function handOver({ context, prepared, deps, order, log }: HandOver): Promise<FinishReason> {
  const limitMs = deps.taskTimeoutS * 1000;
  const protocol = order.protocol ?? DEFAULT_SOLVER_PROTOCOL;
  const description = renderTaskDescription(deps.template, {
    taskId: order.maskedId ?? prepared.ref.taskId,
    errorPath: `${WORKSPACE}/${basename(prepared.errorReportPath)}`,
    errorReport: prepared.errorReport,
    imageNote: deps.sandboxes.runsTaskImage ? IMAGE_NOTE : '',
    protocol,
  });
  context.handedOver();
  const timer = setTimeout(() => context.finish('timeout'), limitMs);
  const conversation = new SolverConversation({
    context,
    solver: deps.peers.peer(order.solverUrl),
    dialect: dialectFor(protocol, deps.commandTimeoutS),
    execute: (command, timeoutS) => runSolverCommand(context, command, deps.logger, timeoutS),
    log,
    trace: (line) => deps.logger.log(line),
    deadline: Date.now() + limitMs,
  });
  const solver = conversation.run(description);
  try {
    const reason = await Promise.race([context.finishing, solver, context.broken]);
    if (reason === 'finished') await settledWithin(solver, SOLVER_EXIT_GRACE_MS);
    context.handover.abort();
    await conversation.close(
      formatTaskCompleted({ commandsExecuted: context.commands, failed: context.failedCommands, timeSeconds: context.elapsedSeconds() }),
    );
    return reason;
  } finally {
    clearTimeout(timer);
  }
}

/** Waits for `promise` to settle, for at most `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
