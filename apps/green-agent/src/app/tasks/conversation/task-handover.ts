import { basename } from 'node:path';
import { formatTaskCompleted, type DialectName } from '@arvo-rca/a2a-protocol';
import { WORKSPACE } from '@arvo-rca/common';
import type { PreparedTask } from '../../task-assets';
import type { FinishReason, TaskContext } from '../task-context';
import type { TaskOrder } from '../task-order';
import type { TaskRunDeps } from '../task-run-deps';
import { SolverConversation } from './solver-conversation';
import { describeDialect, dialectFor, FirstAnswerDialect, type SolverDialect } from '../dialects';
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
  const describe = (dialect: DialectName): string =>
    renderTaskDescription(deps.template, {
      taskId: order.maskedId ?? prepared.ref.taskId,
      errorPath: `${WORKSPACE}/${basename(prepared.errorReportPath)}`,
      errorReport: prepared.errorReport,
      imageNote: deps.sandboxes.runsTaskImage ? IMAGE_NOTE : '',
      dialect,
    });
  const dialect = firstDialect(order, context, deps.commandTimeoutS, log);
  context.handedOver();
  const timer = setTimeout(() => context.finish('timeout'), limitMs);
  const conversation = new SolverConversation({
    context,
    solver: deps.peers.peer(order.solverUrl),
    dialect,
    execute: (command, timeoutS) => runSolverCommand(context, command, deps.logger, timeoutS),
    log,
    trace: (line) => deps.logger.log(line),
    deadline: Date.now() + limitMs,
  });
  const solver = conversation.run(describe);
  try {
    const reason = await Promise.race([context.finishing, solver, context.broken]);
    if (reason === 'finished') await settledWithin(solver, SOLVER_EXIT_GRACE_MS);
    context.handover.abort();
    if (dialect instanceof FirstAnswerDialect) dialect.over();
    await conversation.close(
      formatTaskCompleted({ commandsExecuted: context.commands, failed: context.failedCommands, timeSeconds: context.elapsedSeconds() }),
    );
    return reason;
  } finally {
    clearTimeout(timer);
  }
}

/** The dialect the task opens in: the one known (and the log says why), else the reply dialect until the solver's first answer shows its own. */
function firstDialect(order: TaskOrder, context: TaskContext, commandTimeoutS: number, log: (line: string) => void): SolverDialect {
  const choice = order.dialect;
  if (choice?.dialect) {
    log(describeDialect(choice.dialect, choice.source));
    return dialectFor(choice.dialect, commandTimeoutS);
  }
  const found = (dialect: DialectName): void => {
    log(describeDialect(dialect, 'first-answer'));
    order.dialect?.found(dialect);
  };
  return new FirstAnswerDialect(commandTimeoutS, found, () => context.commands > 0);
}

/** Waits for `promise` to settle, for at most `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
