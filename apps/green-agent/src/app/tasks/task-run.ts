import type { PassThrough } from 'node:stream';
import { readSubmission, type Prediction } from '@arvo-rca/loc-json';
import { CodedError, SOURCE_TREE, textHead, type TaskRef } from '@arvo-rca/common';
import { diskLimitTask, failedTask, interruptedTask, scoreReading, type GroundTruth } from '@arvo-rca/rca-eval';
import { withSolverExit, type TaskErrorFields, type TaskMetrics } from '@arvo-rca/results';
import { ImagePullError } from '@arvo-rca/sandbox';
import type { TaskEvidence } from '@arvo-rca/run-record';
import type { TaskLogScope } from '@arvo-rca/task-logging';
import type { PreparedTask, PreparingTask } from '../task-assets';
import { TaskContext, type FinishReason } from './task-context';
import { ranTask, type RanTask } from './ran-task';
import type { TaskOrder } from './task-order';
import type { TaskRunDeps } from './task-run-deps';
import { handOver } from './conversation/task-handover';
import { SOLVER_TEXT_LOG_BYTES } from './conversation/solver-conversation';
import { filesNamedIn, sourceExcerpts } from './submission/source-excerpts';
import { readSubmissionFile, type SubmissionFile } from './submission/submission-file';

/** A task whose sandbox runs: its workspace complete, its ground truth read. */
interface ReadyTask {
  prepared: PreparedTask;
  truth: GroundTruth;
}

export const SHUTTING_DOWN = 'the green agent is shutting down';
export const CANCELED = 'canceled by the requester';

/**
 * One task from its files to its cleanup, in its steps: prepare, start, (for a task prepared ahead: its turn),
 * hand over (task-handover.ts), score, record. Never
 * throws: a task that cannot run is a record with status `failed`, the reason and the error's code (`interrupted` when
 * the agent is shutting down or the order's signal cancels it: not the solver's doing, and to be run again).
 */
export class TaskRun {
  readonly taskId: string;
  readonly maskedId: string | undefined;
  /** When the task's turn came: made, for a task prepared ahead; else when its run began. */
  startedAt = Date.now();
  context: TaskContext | undefined;
  private preparing: PreparingTask | undefined;
  /** The source tree on its way into a sandbox that copies it in, as the host extracts it. */
  private tree: PassThrough | undefined;
  private truth: GroundTruth | null = null;
  private diskLimit: string | undefined;

  constructor(
    private readonly deps: TaskRunDeps,
    private readonly ref: TaskRef,
    private readonly order: TaskOrder,
    readonly contextId: string,
    private readonly scope: TaskLogScope,
    readonly evidence: TaskEvidence,
  ) {
    this.taskId = ref.taskId;
    this.maskedId = order.maskedId;
  }

  async run(): Promise<RanTask> {
    const cancel = (): void => this.context?.finish('canceled');
    this.order.signal?.addEventListener('abort', cancel);
    try {
      const ready = await this.start(await this.prepare());
      const log = this.log;
      const finishReason =
        (await this.awaitTurn()) ?? (await handOver({ context: this.started(), prepared: ready.prepared, deps: this.deps, order: this.order, log }));
      return await this.score(ready, finishReason);
    } catch (error) {
      return this.failed(error as Error);
    } finally {
      this.order.signal?.removeEventListener('abort', cancel);
      await this.cleanUp();
    }
  }

  /** The task's files fetched, its workspace being laid out. */
  private async prepare(): Promise<PreparingTask> {
    const { maskedId, signal } = this.order;
    if (maskedId) this.log(`the solver knows this task as ${maskedId}`);
    this.tree = this.deps.sandboxes.treeIntake();
    this.preparing = await this.deps.assets.begin(this.ref, this.log, { masked: maskedId !== undefined, tree: this.tree });
    // Shutdown or a cancel may have come while the files were fetched: no sandbox starts after it.
    if (this.deps.running.closing) throw new Error(SHUTTING_DOWN);
    if (signal?.aborted) throw new Error(CANCELED);
    return this.preparing;
  }

  /** The sandbox started while the workspace is completed, and the ground truth read from the host's tree. */
  private async start(preparing: PreparingTask): Promise<ReadyTask> {
    const ready = preparing.prepared.then(async (prepared) => {
      this.evidence.crashReport = prepared.errorReport;
      this.evidence.fix = prepared.fix;
      // From the host's tree, which no solver command reaches before the handover.
      const truth = await this.deps.groundTruth.fromPatch(prepared.fix, prepared.hostTree.dir);
      this.truth = truth; // for a start that fails after it
      return { prepared, truth };
    });
    ready.catch(() => undefined); // awaited below, unless the task ends before its sandbox is made
    const pendingWorkspace = { ready: preparing.prepared.then(() => undefined), tree: this.tree && { folder: SOURCE_TREE, tar: this.tree } };
    const { contextId, scope } = this;
    const sandbox = this.deps.sandboxes.create({
      task: this.ref.taskId,
      contextId,
      image: preparing.image,
      workspaceDir: preparing.workspaceDir,
      pendingWorkspace,
      onProgress: this.log,
      onPull: (pull) => this.order.progress?.({ kind: 'pull', ...pull }),
      onDiskLimit: this.onDiskLimit,
      // Made ahead, it may wait up to one running task's limit for its turn.
      waitS: this.order.turn ? this.deps.taskTimeoutS : undefined,
    });
    this.context = new TaskContext(contextId, sandbox, scope, this.order.progress ?? (() => undefined));
    this.deps.running.add(this.context);
    const [, started] = await Promise.all([sandbox.start(), ready]);
    this.log(`sandbox ${sandbox.name} started (${sandbox.kind})`);
    return started;
  }

  /**
   * A task prepared ahead waits here for its turn, its sandbox running; one that ends first (canceled, the
   * agent shutting down, or its turn withdrawn) is never handed over, and says why.
   */
  private async awaitTurn(): Promise<FinishReason | undefined> {
    const context = this.started();
    const { turn } = this.order;
    if (!turn) return undefined;
    this.log(`sandbox ready ahead of the task's turn; waiting for it`);
    const ended = await Promise.race([
      turn.then(
        () => undefined,
        (): FinishReason => 'canceled',
      ),
      context.finishing,
    ]);
    if (ended) return ended;
    // Its disk share, which it held none of while it waited (the running tasks may hold them all: it waits for one).
    const taking = context.sandbox.takeTurn();
    taking.catch(() => undefined); // a task that ends first leaves the wait to its sandbox's stop
    const endedWaiting = await Promise.race([taking.then(() => undefined), context.finishing]);
    if (endedWaiting) return endedWaiting;
    this.startedAt = Date.now();
    return this.deps.running.closing ? 'shutdown' : undefined;
  }

  /** The submission read once; the files it names join the host's tree (the archive's last opening), then it is judged. */
  private async score(ready: ReadyTask, finishReason: FinishReason): Promise<RanTask> {
    const { truth } = ready;
    // Cut short by a shutdown or a cancel, the task says nothing about the solver: it is to be run again, not scored.
    if (finishReason === 'shutdown' || finishReason === 'canceled') {
      const why = finishReason === 'shutdown' ? SHUTTING_DOWN : CANCELED;
      this.log(`interrupted: ${why}`);
      return this.outcome(finishReason, interruptedTask(why, truth));
    }
    // Ended at the disk limit, the task is scored as such: its loc.json is not read.
    const sandbox = finishReason === 'disk-limit' ? undefined : this.context?.sandbox;
    const file: SubmissionFile = sandbox ? await readSubmissionFile(sandbox) : { kind: 'missing' };
    this.evidence.submission = file.kind === 'text' ? file.text : null;
    // Read once: the judge scores this reading, and the record's excerpts mark its locations.
    const reading = file.kind === 'text' ? readSubmission(file.text) : file.kind === 'refused' ? file : null;
    const predictions = reading?.kind === 'read' ? reading.predictions : [];
    // A tree that went into the container is on this host only as far as the judge reads it: the submission's files join it.
    await ready.prepared.hostTree
      .addFiles(filesNamedIn(predictions))
      .catch((error: Error) => this.deps.logger.warn(`the submission's files are not on this host: ${error.message}`));
    const metrics = finishReason === 'disk-limit' && this.diskLimit ? diskLimitTask(this.diskLimit, truth) : scoreReading(reading, truth);
    this.log(`finished (${finishReason}): ${metrics.status}${metrics.detail ? `, ${metrics.detail}` : ''}`);
    return this.record(ready, finishReason, metrics, predictions);
  }

  /** The task's record, with excerpts of the sources the fix and the submission name. */
  private async record({ prepared, truth }: ReadyTask, finishReason: FinishReason, metrics: TaskMetrics, predictions: readonly Prediction[]): Promise<RanTask> {
    this.evidence.sources = await sourceExcerpts(prepared.hostTree.dir, truth, predictions).catch((error: Error) => {
      this.deps.logger.warn(`no source excerpts for the record: ${error.message}`);
      return null;
    });
    return this.outcome(finishReason, metrics);
  }

  private failed(error: Error): RanTask {
    // Whoever was to read the tree is gone: its writer goes on without it.
    this.tree?.destroy();
    this.deps.logger.error(`task failed: ${error.message}`);
    // Whatever broke while the agent shut down or the task was canceled (an extraction, a download) was most likely broken by it.
    const interrupted = this.deps.running.closing || this.order.signal?.aborted === true;
    const fields = errorFields(error);
    return ranTask(this, 'error', interrupted ? interruptedTask(error.message, this.truth, fields) : failedTask(error.message, this.truth, fields));
  }

  /** Ends the task on every path: its sandbox removed (a start still under way too), then its workspace. */
  private async cleanUp(): Promise<void> {
    const { context, deps } = this;
    context?.finish('solver-ended');
    context?.handover.abort();
    deps.running.remove(this.contextId);
    await context?.sandbox.stop().catch((error: Error) => deps.logger.error(`sandbox removal failed: ${error.message}`));
    // A start that failed leaves the extraction to end first (without its copy): then its folder goes.
    await this.preparing?.prepared.then(
      (prepared) => prepared.dispose().catch((error: Error) => deps.logger.error(`workspace removal failed: ${error.message}`)),
      () => undefined,
    );
  }

  private outcome(finishReason: FinishReason, metrics: TaskMetrics): RanTask {
    return ranTask(this, finishReason, withSolverExit(metrics, this.context?.solverExit));
  }

  private started(): TaskContext {
    if (!this.context) throw new Error('the task has no sandbox yet');
    return this.context;
  }

  // A line may quote the solver (a reason it gave, a note on its replies): its log and progress show a head of it.
  private readonly log = (line: string): void => {
    const shown = textHead(line, SOLVER_TEXT_LOG_BYTES);
    this.deps.logger.log(shown);
    this.order.progress?.({ kind: 'note', text: shown });
  };

  private readonly onDiskLimit = (detail: string): void => {
    this.diskLimit = detail;
    this.scope.run(() => this.log(`ending the task: ${detail}`));
    this.context?.finish('disk-limit');
  };
}

/** What the task's record keeps of the error that ended it: its code, and the image a pull was of (the one this agent's templates made). */
function errorFields(error: Error): TaskErrorFields {
  return {
    ...(error instanceof CodedError ? { error_code: error.code } : {}),
    ...(error instanceof ImagePullError ? { image: error.image } : {}),
  };
}
