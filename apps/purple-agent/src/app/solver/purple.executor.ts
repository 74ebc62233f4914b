import { Inject, Injectable, Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { A2aClientFactory, findTaskId, formatSolverExit, TASK_FINISHED, TaskEvents } from '@arvo-rca/a2a-protocol';
import { isTaskId } from '@arvo-rca/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import type { AgentResult } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';
import { PurpleConfig } from '../purple-config';
import { GreenTaskEnvironment } from './green-task-environment';
import { CancellableEnvironment } from './cancellable-environment';
import { ReplyChannel, type RunReporter } from './reply-channel';
import { describeResult, describeStep, solverExitOf } from './run-report';
import { TaskSolver } from './task-solver';

/** One task's run on its context: how it reaches the green agent, and how it is canceled. */
interface ContextRun {
  channel: ReplyChannel | undefined;
  cancel: AbortController;
  /** The A2A tasks of this context, as the green agent sees them (one per call in reply mode, maybe). */
  taskIds: Set<string>;
}

/**
 * The purple agent's A2A entry: a task description from a green agent starts one run on that context.
 * In reply mode (no GREEN_AGENT_URL) each command is the reply to the green's latest message and the
 * green's next message on the context is its answer; in callback mode the commands go to the green agent
 * as messages of their own. Either way the run reports a `working` update per step and ends with a final
 * status carrying the exit status, its reason and the run's usage as a data part. Contexts share nothing
 * but the process-wide usage totals.
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
    if (current?.channel?.awaitingAnswer) {
      current.taskIds.add(taskId);
      current.channel.answer(events.userText(), events);
      return current.channel.turnClosed();
    }
    if (current) return events.reply('This context already has a task running; one task per context.');
    const greenUrl = this.config.GREEN_AGENT_URL;
    const answerDeadlineMs = this.config.GREEN_CALL_TIMEOUT_S * 1000;
    const channel = greenUrl ? undefined : new ReplyChannel(events, answerDeadlineMs);
    const run: ContextRun = { channel, cancel: new AbortController(), taskIds: new Set([taskId]) };
    this.runs.set(contextId, run);
    const environment = channel ?? new GreenTaskEnvironment(this.peers.peer(greenUrl ?? ''), contextId, answerDeadlineMs);
    const reporter: RunReporter = channel ?? { progress: (text) => events.progress(text), end: (state, text, data) => events.end(state, text, data) };
    const mode = greenUrl ? `calling back ${greenUrl}` : 'replying to the green agent';
    const finished = this.run(events, new CancellableEnvironment(environment, run.cancel.signal), reporter, mode).finally(() => this.runs.delete(contextId));
    // In reply mode this call ends with the first command; the run goes on over the green's next messages.
    await (channel ? Promise.race([channel.turnClosed(), finished]) : finished);
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
    run.channel?.abandon('the task was canceled');
    TaskEvents.canceled(bus, taskId, contextId, 'canceled by the requester; the run ends before its next command');
  }

  /** One run from the task description to its final status; never throws (an unexpected error is a `failed` task with its reason). */
  private async run(events: TaskEvents, environment: TaskEnvironment, reporter: RunReporter, mode: string): Promise<void> {
    const { contextId } = events;
    const taskId = taskName(events.userText(), contextId);
    const started = Date.now();
    events.start(`${taskId}: solving with ${this.solver.modelName}`);
    try {
      // Every line of the run lands in the task's log file, beside the green agent's lines about it.
      const result = await this.logging.runInTask({ taskId, contextId }, async () => {
        this.logger.log(`solving ${taskId} with ${this.solver.modelName}, ${mode}`);
        const outcome = await this.solver.solve({ taskId, contextId, description: events.userText() }, environment, (progress) => {
          this.logger.log(describeStep(progress));
          reporter.progress(describeStep(progress));
        });
        this.logger.log(describeResult(outcome));
        return outcome;
      });
      reporter.end(
        finalState(result),
        finalText(result),
        formatSolverExit(
          solverExitOf(result, (Date.now() - started) / 1000, { path: this.solver.trajectoryFile({ taskId, contextId }), document: result.trajectory }),
        ),
      );
    } catch (error) {
      const reason = `the run failed unexpectedly: ${(error as Error).message}`;
      this.logger.error(reason);
      reporter.end(TaskState.TASK_STATE_FAILED, reason, formatSolverExit({ exitStatus: 'UncaughtError', reason }));
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

// A submission's final status says `[TASK FINISHED]` first: in reply mode that is how the green hears it.
function finalText(result: AgentResult): string {
  return result.exitStatus === 'Submitted' ? `${TASK_FINISHED} ${describeResult(result)}` : describeResult(result);
}
