import { Inject, Injectable, Logger } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import {
  A2aPeerError,
  EXECUTE_PREFIX,
  findTaskId,
  formatCommandRejected,
  NO_RUNNING_TASK,
  formatAssessmentSaved,
  formatTaskProgress,
  formatTaskProgressData,
  parseSolverMessage,
  TASK_FINISHED,
  TaskEvents,
  type ResumeRequest,
  type SolverMessage,
} from '@arvo-rca/a2a-protocol';
import {
  AssessmentService,
  describeAssessment,
  parseAssessmentRequest,
  recordSender,
  type AssessmentListener,
  type AssessmentReport,
  type ResumePlan,
} from './assessments';
import type { TaskRef } from '@arvo-rca/common';
import { RecordError } from '@arvo-rca/run-record';
import { TaskLists } from '@arvo-rca/task-lists';
import { GreenConfig } from './green-config';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { TaskAssetsError, TaskAssetsService } from './task-assets';
import { describeProgress, TaskContextService, taskRecordDraft } from './tasks';

/**
 * Progress lines this close together go to the requester as one update. At 128 tasks at once an
 * assessment reports about 50 steps a second; an update each was a write that woke the requester and a
 * store of the task's history each, on the loop that serves every task.
 */
const PROGRESS_EVERY_MS = 250;

/**
 * The green agent's A2A entry. A message on the context of a running task is that task's
 * (`execute:` or `[TASK FINISHED]`) and is never read as a new request, whatever it contains. Any
 * other message is an assessment request (AgentBeats JSON) or a plain `Task ID: <source>:<id>`; one it
 * refuses (a bad request, a refused resume, text it does not understand) ends as a task in state
 * `rejected` with every problem named, so that a client waiting for a task's state stops at once.
 */
@Injectable()
export class GreenExecutor implements AgentExecutor {
  private readonly logger = new Logger(GreenExecutor.name);
  /** The task and assessment requests running here, by A2A task id: what a cancel stops. */
  private readonly running = new Map<string, { contextId: string; cancel: AbortController }>();

  constructor(
    private readonly tasks: TaskContextService,
    private readonly assessments: AssessmentService,
    private readonly assets: TaskAssetsService,
    private readonly lists: TaskLists,
    @Inject(GreenConfig) private readonly config: GreenConfig,
  ) {}

  /** Never throws: an unexpected error ends the request's task as `failed`, with the reason. */
  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const events = new TaskEvents(request, bus, { progressEveryMs: PROGRESS_EVERY_MS });
    const cancel = new AbortController();
    this.running.set(request.taskId, { contextId: request.contextId, cancel });
    try {
      await this.serve(request, events, cancel.signal);
    } catch (error) {
      const reason = `the green agent failed unexpectedly: ${(error as Error).message}`;
      this.logger.error(reason);
      events.fail(reason);
    } finally {
      this.running.delete(request.taskId);
    }
  }

  /**
   * Cancels for real: the request's running tasks end at once (their containers and workspaces are
   * removed, their solvers told), its other tasks do not start, and its status is `canceled`. A request
   * that is not running here is refused.
   */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const running = this.running.get(taskId);
    if (!running) throw new TaskNotCancelableError(`task ${taskId} is not running here`);
    this.logger.warn(`task ${taskId} canceled by its requester; its running tasks end now`);
    running.cancel.abort();
    TaskEvents.canceled(bus, taskId, running.contextId, 'canceled: running tasks were ended and cleaned up, the rest were not started');
  }

  private async serve(request: RequestContext, events: TaskEvents, signal: AbortSignal): Promise<void> {
    const text = events.userText();
    const solver = parseSolverMessage(text);
    if (this.tasks.isRunning(request.contextId) || solver.kind !== 'other') return this.serveSolver(request.contextId, solver, events);
    // Task ids are checked against the configured sources here, where they arrive: a bad one starts nothing.
    const assessment = await parseAssessmentRequest(text, events.userData(), { taskIds: this.assets, lists: this.lists });
    if (assessment.kind === 'request') {
      const { request } = assessment;
      return this.runAssessment(events, describeAssessment(request), request.sendRecord, (listener) => this.assessments.run(request, listener, signal));
    }
    if (assessment.kind === 'resume') return this.resumeAssessment(assessment.resume, events, signal);
    if (assessment.kind === 'invalid') return events.reject(`Invalid assessment request, nothing was started:\n- ${assessment.problems.join('\n- ')}`);
    const taskId = findTaskId(text);
    if (!taskId)
      return events.reject(
        'Request not understood, nothing was started: send "Task ID: <source>:<id>" (for example "Task ID: arvo:14368") or an assessment request.',
      );
    const task = this.parseTask(taskId);
    if (task instanceof TaskAssetsError) return events.reject(`Invalid task request, nothing was started: ${task.message}`);
    await this.runTask(task, events, signal);
  }

  /**
   * A calling-back solver's message: its answer is a message, as the original's solvers expect. A message
   * no running task takes (its context unknown or its task over, or text that is neither a command nor the
   * end) is refused as a `rejected` task, so that a caller stops at once.
   */
  private async serveSolver(contextId: string, message: SolverMessage, events: TaskEvents): Promise<void> {
    if (!this.tasks.isRunning(contextId)) return events.reject(formatCommandRejected(NO_RUNNING_TASK));
    if (message.kind === 'execute') return events.reply(await this.tasks.execute(contextId, message.command));
    if (message.kind === 'finished') return events.reply(this.tasks.finish(contextId));
    events.reject(formatCommandRejected(`send one command as "${EXECUTE_PREFIX} <command>", or "${TASK_FINISHED}" when loc.json is written`));
  }

  private parseTask(taskId: string): TaskRef | TaskAssetsError {
    try {
      return this.assets.parse(taskId);
    } catch (error) {
      if (error instanceof TaskAssetsError) return error;
      throw error;
    }
  }

  private async runTask(task: TaskRef, events: TaskEvents, signal: AbortSignal): Promise<void> {
    events.start(`task ${task.taskId} accepted`);
    const solverUrl = this.config.PURPLE_AGENT_URL;
    const dialect = await this.assessments.dialectFor(solverUrl);
    const { outcome } = await this.tasks.runTask(task, { solverUrl, dialect, progress: (event) => events.progress(describeProgress(event)), signal });
    // The task's record is its Result: what an assessment's run record keeps of it, less the files. Sent on
    // its own, the task is keyed by its id and ran once.
    const record = taskRecordDraft(task.taskId, outcome, 1);
    events.artifact('Result', record);
    events.end(record.finish_reason === 'error' ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED, summarize(record));
  }

  /**
   * Runs an assessment (new or resumed) into its record: the record's folder on the first status, the
   * Result at the end; with `sendRecord`, the record's files as they are written.
   */
  private async runAssessment(
    events: TaskEvents,
    description: string,
    sendRecord: boolean,
    run: (listener: AssessmentListener) => Promise<AssessmentReport>,
  ): Promise<void> {
    events.start(description);
    const report = await run({
      // Each progress line goes as text, for people, and as data, for drivers.
      report: (line) => events.progress(formatTaskProgress(line), formatTaskProgressData(line)),
      recorded: (recordDir) => events.progress(`recording into ${recordDir}`, formatAssessmentSaved({ recordDir })),
      ...(sendRecord ? recordSender(events) : {}),
    });
    const { result, recordDir, file } = report;
    events.artifact('Result', result);
    const text = `${result.n_scored} of ${result.n_tasks} tasks scored in ${result.time_used}s; results saved to ${file}`;
    events.end(TaskState.TASK_STATE_COMPLETED, text, formatAssessmentSaved({ recordDir, resultsFile: file }));
  }

  /**
   * A record that cannot be resumed (missing, damaged, run with another solver or settings, resumed by another
   * assessment now) is refused with the reason, and nothing runs.
   */
  private async resumeAssessment(resume: ResumeRequest, events: TaskEvents, signal: AbortSignal): Promise<void> {
    let plan: ResumePlan;
    try {
      plan = await this.assessments.planResume(resume);
    } catch (error) {
      if (!(error instanceof RecordError) && !(error instanceof A2aPeerError)) throw error;
      return events.reject(`Resume refused, nothing was run: ${error.message}`);
    }
    const what = `resuming record ${resume.recordId}: ${plan.tasks.length} of ${plan.scan.resultKeys.length} tasks to run with ${resume.purpleUrl}`;
    try {
      await this.runAssessment(events, what, resume.sendRecord, (listener) => this.assessments.resume(plan, listener, signal));
    } finally {
      // The resume releases the record's lock itself; this covers a failure before it began.
      await this.assessments.dropPlan(plan);
    }
  }
}

function summarize(record: TaskRecordDraft): string {
  const m = record.metrics;
  const scores =
    m.status === 'scored'
      ? `file_acc ${m.file_acc}, func_recall ${m.func_recall}, line_iou ${m.line_iou}, line_proximity ${m.line_proximity}`
      : `${m.status}: ${m.detail}`;
  return `${record.task} ${m.status} (${record.run.commands} commands, ${record.run.seconds.toFixed(1)}s): ${scores}`;
}
