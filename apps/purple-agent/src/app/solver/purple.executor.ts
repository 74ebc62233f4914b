import { Inject, Injectable, Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { A2aClientFactory, findTaskId, TASK_FINISHED, TaskEvents } from '@arvo-rca/a2a-protocol';
import { isTaskId } from '@arvo-rca/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import type { AgentResult, Submits } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';
import { PurpleConfig } from '../purple-config';
import { CancellableEnvironment } from './cancellable-environment';
import { describeResult, describeStep, solverExitOf } from './run-report';
import { openDialect } from './open-dialect';
import type { SolverDialect } from './solver-dialect';
import { TaskSolver } from './task-solver';

/** One task's run on its context: its dialect, and how it is canceled. */
interface ContextRun {
  dialect: SolverDialect;
  cancel: AbortController;
  /** The A2A tasks of this context, as the assessor sees them (one per turn in terminal-bench-shell-v1; one, maybe, in the reply dialect). */
  taskIds: Set<string>;
}

/**
 * The purple agent's A2A entry: a task from an assessor starts one run on that context, in the dialect its
 * first message and the configuration choose (openDialect): the reply dialect, terminal-bench-shell-v1 or the
 * callback dialect. Whichever it is, the run reports a line per step and ends by saying its exit status, its reason and
 * its usage. Contexts share nothing but the process-wide usage totals.
 */
@Injectable()
export class PurpleExecutor implements AgentExecutor {
  private readonly logger = new Logger(PurpleExecutor.name);
  private readonly runs = new Map<string, ContextRun>();

  constructor(
    private readonly solver: TaskSolver,
    private readonly peers: A2aClientFactory,
    @Inject(PurpleConfig) private readonly config: PurpleConfig,
    private readonly logging: WinstonLoggerFactory,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const events = new TaskEvents(request, bus);
    const { contextId, taskId } = request;
    const current = this.runs.get(contextId);
    if (current?.dialect.awaitingAnswer) {
      current.taskIds.add(taskId);
      current.dialect.answer(events.userText(), events);
      return current.dialect.turnClosed();
    }
    if (current) return events.reply('This context already has a task running; one task per context.');
    const dialect = openDialect(events, {
      greenUrl: this.config.GREEN_AGENT_URL,
      answerDeadlineMs: this.config.GREEN_CALL_TIMEOUT_S * 1000,
      peers: this.peers,
    });
    const run: ContextRun = { dialect, cancel: new AbortController(), taskIds: new Set([taskId]) };
    this.runs.set(contextId, run);
    const finished = this.run(events, dialect, new CancellableEnvironment(dialect, run.cancel.signal), run.cancel.signal).finally(() =>
      this.runs.delete(contextId),
    );
    // Where the assessor drives, this call ends with the first command; the run goes on over its next messages.
    await Promise.race([dialect.turnClosed(), finished]);
  }

  /**
   * Cancels for real: the run's next command is refused and its run ends; the green agent is told by the
   * `canceled` status. A task that is not running here is refused.
   */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const found = [...this.runs.entries()].find(([, run]) => run.taskIds.has(taskId));
    if (!found) throw new TaskNotCancelableError(`task ${taskId} is not running here`);
    const [contextId, run] = found;
    this.logger.warn(`task ${taskId} canceled by its requester; the run ends before its next command`);
    run.cancel.abort();
    run.dialect.abandon('the task was canceled');
    TaskEvents.canceled(bus, taskId, contextId, 'canceled by the requester; the run ends before its next command');
  }

  /** One run from the task description to its final status; never throws (an unexpected error is a `failed` task with its reason). */
  private async run(events: TaskEvents, dialect: SolverDialect, environment: TaskEnvironment, canceled: AbortSignal): Promise<void> {
    const { contextId } = events;
    const { description, submits } = dialect;
    const taskId = taskName(description, contextId);
    const started = Date.now();
    events.start(`${taskId}: solving with ${this.solver.modelName}`);
    try {
      // Every line of the run lands in the task's log file, beside the green agent's lines about it.
      const result = await this.logging.runInTask({ taskId, contextId }, async () => {
        this.logger.log(`solving ${taskId} with ${this.solver.modelName}, ${dialect.dialectNote}`);
        const outcome = await this.solver.solve(
          { taskId, contextId, description, submits },
          environment,
          (progress) => {
            this.logger.log(describeStep(progress));
            dialect.progress(describeStep(progress));
          },
          canceled,
        );
        this.logger.log(describeResult(outcome, submits));
        return outcome;
      });
      dialect.end(
        finalState(result),
        finalText(result, submits),
        solverExitOf(result, (Date.now() - started) / 1000, { path: this.solver.trajectoryFile({ taskId, contextId }), document: result.trajectory }),
      );
    } catch (error) {
      const reason = `the run failed unexpectedly: ${(error as Error).message}`;
      this.logger.error(reason);
      dialect.end(TaskState.TASK_STATE_FAILED, reason, { exitStatus: 'UncaughtError', reason });
    }
  }
}

/**
 * The task id the green agent named, kept for naming the run's log and trajectory only: the solver never
 * reads its structure. A text whose task id cannot name a file is known by its context instead.
 */
function taskName(text: string, contextId: string): string {
  const named = findTaskId(text);
  return named !== undefined && isTaskId(named) ? named : `unknown:${contextId.slice(0, 8)}`;
}

function finalState(result: AgentResult): TaskState {
  const failed = result.exitStatus === 'ModelError' || result.exitStatus === 'EnvironmentError';
  return failed ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED;
}

// A submission's final status says `[TASK FINISHED]` first: in the reply dialect that is how the green hears it.
function finalText(result: AgentResult, submits: Submits): string {
  return result.exitStatus === 'Submitted' ? `${TASK_FINISHED} ${describeResult(result, submits)}` : describeResult(result, submits);
}
