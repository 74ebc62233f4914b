import { randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { A2aClientFactory, formatCommandRejected, formatCommandResult, formatTaskCompleted } from '@arvo-rca/a2a-protocol';
import { SANDBOX_FACTORY, SandboxError, type SandboxBackendName, type SandboxFactory } from '@arvo-rca/sandbox';
import { LOC_JSON_PATH, SOURCE_TREE, WORKSPACE } from '@arvo-rca/common';
import { readSubmission } from '@arvo-rca/loc-json';
import { diskLimitTask, failedTask, GroundTruthExtractor, interruptedTask, scoreReading, withSolverExit, type GroundTruth, type TaskMetrics } from '@arvo-rca/rca-eval';
import type { TaskEvidence } from '@arvo-rca/run-record';
import { taskLogFileName, WinstonLoggerFactory, type TaskLogScope } from '@arvo-rca/task-logging';
import { TaskAssetsService, type PreparedTask, type PreparingTask, type TaskRef } from '../task-assets';
import { GreenConfig } from '../green-config';
import { TaskContext, type FinishReason } from './task-context';
import type { TaskProgress } from './task-progress';
import { SolverConversation } from './solver-conversation';
import { filesNamedIn, sourceExcerpts } from './source-excerpts';
import { loadTemplate, renderTaskDescription } from './task-description';

/** What became of one task, scored. */
export interface TaskOutcome {
  taskKey: string;
  contextId: string;
  finishReason: FinishReason | 'error';
  metrics: TaskMetrics;
  commands: number;
  failedCommands: number;
  seconds: number;
  /** What the run record keeps of the task for the viewer. */
  evidence: TaskEvidence;
}

/** How a task is run: for whom, who hears of it, who may cancel it, and under which id the solver knows it. */
export interface TaskOrder {
  solverUrl: string;
  progress?: TaskProgress;
  signal?: AbortSignal;
  /** The opaque key the solver is given instead of the task's own (`task:3f9a2c1b`); none: the task's key. */
  maskedKey?: string;
}

/** A validated task about to run: who it is, where it logs, whom it is handed to, and who may cancel it. */
interface TaskStart {
  ref: TaskRef;
  maskedKey: string | undefined;
  contextId: string;
  scope: TaskLogScope;
  solverUrl: string;
  progress: TaskProgress;
  signal: AbortSignal | undefined;
}

// How long a solver that sent [TASK FINISHED] may take to end its stream, which says how its run ended.
const SOLVER_EXIT_GRACE_MS = 2_000;
/** What the host's extraction may run ahead of the engine's copy of the tree. */
const TREE_BUFFER_BYTES = 4 * 1024 * 1024;
// How long shutdown waits for running tasks to clean up after themselves.
const SHUTDOWN_GRACE_MS = 8_000;
const SHUTTING_DOWN = 'the green agent is shutting down';
const CANCELED = 'canceled by the requester';

/**
 * Owns every running task: the map from context id to TaskContext, each task's lifecycle from
 * assets to cleanup, and the commands the solver sends on a task's context. A task finishes exactly
 * once, whichever way it ends, and leaves no container or workspace behind.
 */
@Injectable()
export class TaskContextService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(TaskContextService.name);
  private readonly contexts = new Map<string, TaskContext>();
  private readonly running = new Set<Promise<TaskOutcome>>();
  private readonly template = loadTemplate('task-description.md');
  /** Set once shutdown begins: no task starts any more, and one still being prepared gets no sandbox. */
  private closing = false;

  constructor(
    private readonly assets: TaskAssetsService,
    @Inject(SANDBOX_FACTORY) private readonly sandboxes: SandboxFactory,
    private readonly groundTruth: GroundTruthExtractor,
    private readonly peers: A2aClientFactory,
    @Inject(GreenConfig) private readonly config: GreenConfig,
    private readonly logging: WinstonLoggerFactory,
  ) {}

  /**
   * Runs one task with the solver at `solverUrl`: prepare, hand over, serve, score, clean up. Never
   * throws: a task that cannot run is an outcome with status `failed` and the reason (`interrupted`
   * when the agent is shutting down or `signal` cancels it: not the solver's doing, and to be run again).
   */
  async runTask(ref: TaskRef, order: TaskOrder): Promise<TaskOutcome> {
    const { solverUrl, progress = () => undefined, signal, maskedKey } = order;
    if (this.closing) return notStarted(ref, interruptedTask(SHUTTING_DOWN));
    if (signal?.aborted) return notStarted(ref, interruptedTask(CANCELED));
    const run = this.runTracked({ ref, maskedKey, solverUrl, progress, signal });
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  private async runTracked(start: Omit<TaskStart, 'contextId' | 'scope'>): Promise<TaskOutcome> {
    const contextId = randomUUID();
    const scope = this.logging.openTask({ taskId: start.ref.key, contextId });
    try {
      return await scope.run(() => this.lifecycle({ ...start, contextId, scope }));
    } finally {
      scope.end();
    }
  }

  /** One task from assets to cleanup, inside its log scope. */
  private async lifecycle(start: TaskStart): Promise<TaskOutcome> {
    const { ref, contextId, scope, solverUrl, progress, signal, maskedKey } = start;
    const taskKey = ref.key;
    const started = Date.now();
    const log = (line: string): void => {
      this.logger.log(line);
      progress({ kind: 'note', text: line });
    };
    const cancel = (): void => context?.finish('canceled');
    signal?.addEventListener('abort', cancel);
    let preparing: PreparingTask | undefined;
    // A container sandbox starts while the host extracts the tree, and copies it in as it is written.
    const tree = this.sandboxes.kind === 'docker' ? new PassThrough({ highWaterMark: TREE_BUFFER_BYTES }) : undefined;
    let truth: GroundTruth | null = null;
    let context: TaskContext | undefined;
    const evidence: TaskEvidence = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: join(this.logging.runDirectory, taskLogFileName(taskKey)) };
    try {
      if (maskedKey) log(`the solver knows this task as ${maskedKey}`);
      preparing = await this.assets.begin(ref, log, { neutralNames: maskedKey !== undefined, tree });
      const ready = preparing.prepared.then(async (prepared) => {
        evidence.crashReport = prepared.errorReport;
        evidence.fix = prepared.fix;
        // From the host's tree, which no solver command reaches before the handover.
        const found = await this.groundTruth.fromPatch(evidence.fix, join(prepared.workspaceDir, SOURCE_TREE));
        truth = found; // for a start that fails after it
        return { prepared, found };
      });
      ready.catch(() => undefined); // awaited below, unless the task ends before its sandbox is made
      // Shutdown or a cancel may have come while the files were fetched: no container starts after it.
      if (this.closing) throw new Error(SHUTTING_DOWN);
      if (signal?.aborted) throw new Error(CANCELED);
      let diskLimit: string | undefined;
      const onDiskLimit = (detail: string): void => {
        diskLimit = detail;
        scope.run(() => log(`ending the task: ${detail}`));
        context?.finish('disk-limit');
      };
      const pendingWorkspace = { ready: preparing.prepared.then(() => undefined), tree: tree && { folder: SOURCE_TREE, tar: tree } };
      const sandbox = this.sandboxes.create({ task: taskKey, contextId, image: preparing.image, workspaceDir: preparing.workspaceDir, pendingWorkspace, onProgress: log, onDiskLimit });
      context = new TaskContext(contextId, ref, taskKey, preparing.workspaceDir, sandbox, scope, progress);
      this.contexts.set(contextId, context);
      const [, { prepared, found }] = await Promise.all([sandbox.start(), ready]);
      truth = found;
      log(`sandbox ${sandbox.name} started (${sandbox.kind})`);

      const finishReason = await this.handOver(context, prepared, { solverUrl, shownKey: maskedKey ?? taskKey }, log);
      // Cut short by a shutdown or a cancel, the task says nothing about the solver: it is to be run again, not scored.
      if (finishReason === 'shutdown' || finishReason === 'canceled') {
        const why = finishReason === 'shutdown' ? SHUTTING_DOWN : CANCELED;
        log(`interrupted: ${why}`);
        return this.outcome(context, finishReason, interruptedTask(why, truth), started, evidence);
      }
      evidence.submission = finishReason === 'disk-limit' ? null : await this.submissionText(context);
      // Read once: the judge scores this reading, and the record's excerpts mark its locations.
      const reading = evidence.submission === null ? null : readSubmission(evidence.submission);
      const metrics = finishReason === 'disk-limit' && diskLimit ? diskLimitTask(diskLimit, truth) : scoreReading(reading, truth);
      log(`finished (${finishReason}): ${metrics.status}${metrics.detail ? `, ${metrics.detail}` : ''}`);
      const predictions = reading?.kind === 'read' ? reading.predictions : [];
      // A tree that went into the container is on this host only as far as the judge reads it: the submission's files join it.
      await prepared.addFiles(filesNamedIn(predictions)).catch((error: Error) => this.logger.warn(`the submission's files are not on this host: ${error.message}`));
      evidence.sources = await sourceExcerpts(join(prepared.workspaceDir, SOURCE_TREE), truth, predictions).catch((error: Error) => {
        this.logger.warn(`no source excerpts for the record: ${error.message}`);
        return null;
      });
      return this.outcome(context, finishReason, metrics, started, evidence);
    } catch (error) {
      // Whoever was to read the tree is gone: its writer goes on without it.
      tree?.destroy();
      const reason = (error as Error).message;
      this.logger.error(`task failed: ${reason}`);
      // Whatever broke while the agent shut down or the task was canceled (an extraction, a download) was most likely broken by it.
      const metrics = this.closing || signal?.aborted ? interruptedTask(reason, truth) : failedTask(reason, truth);
      evidence.trajectory = context?.solverExit?.trajectory ?? null;
      return { taskKey, contextId, finishReason: 'error', metrics, commands: context?.commands ?? 0, failedCommands: context?.failedCommands ?? 0, seconds: (Date.now() - started) / 1000, evidence };
    } finally {
      signal?.removeEventListener('abort', cancel);
      context?.finish('solver-ended');
      context?.handover.abort();
      this.contexts.delete(contextId);
      // Also ends a start still under way (its workspace failed first), and what that start made.
      await context?.sandbox.stop().catch((error: Error) => this.logger.error(`sandbox removal failed: ${error.message}`));
      // A start that failed leaves the extraction to end first (without its copy): then its folder goes.
      await preparing?.prepared.then(
        (prepared) => prepared.dispose().catch((error: Error) => this.logger.error(`workspace removal failed: ${error.message}`)),
        () => undefined,
      );
    }
  }

  /** Runs `execute: <command>` from the solver in the task's own sandbox; the reply text. */
  async execute(contextId: string, command: string): Promise<string> {
    const context = this.contexts.get(contextId);
    if (!context) return formatCommandRejected('no running task has this context id (unknown or finished)');
    return context.logScope.run(() => this.executeIn(context, command));
  }

  private async executeIn(context: TaskContext, command: string): Promise<string> {
    this.logger.log(`$ ${command}`);
    const outcome = await context.sandbox.exec(command).catch((error: unknown) => {
      // Without its engine the task cannot go on: it fails now, with the engine's reason.
      if (error instanceof SandboxError && error.code === 'ENGINE_UNAVAILABLE') context.break(error);
      throw error;
    });
    if (outcome.kind === 'rejected') return formatCommandRejected(outcome.reason);
    context.commands += 1;
    if (outcome.returncode !== 0) context.failedCommands += 1;
    context.progress({ kind: 'step', step: context.commands, command });
    this.logger.log(`-> ${outcome.returncode}${outcome.timedOut === undefined ? '' : ` (${outcome.timedOut})`}, ${outcome.outputBytes} bytes of output`);
    this.logger.debug(`output of ${command}:\n${outcome.output}`);
    return formatCommandResult(outcome);
  }

  /** `[TASK FINISHED]` from the solver: the task ends now and is scored. */
  finish(contextId: string): string {
    const context = this.contexts.get(contextId);
    if (!context) return formatCommandRejected('no running task has this context id (unknown or finished)');
    context.logScope.run(() => this.logger.log('the solver finished the task'));
    context.finish('finished');
    return formatTaskCompleted({ commandsExecuted: context.commands, failed: context.failedCommands, timeSeconds: context.elapsedSeconds() });
  }

  /** The sandbox every task of this agent runs in. */
  get sandbox(): SandboxBackendName {
    return this.sandboxes.backend;
  }

  isRunning(contextId: string): boolean {
    return this.contexts.has(contextId);
  }

  /**
   * On SIGTERM/SIGINT: every running task ends now and its own `finally` removes its container and
   * workspace; shutdown waits for that (bounded), then removes whatever sandbox is still there.
   * Before, not on, application shutdown: the HTTP server closes in between and waits for open
   * requests, and a running task holds two (the requester's stream and the solver's command).
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    for (const context of this.contexts.values()) context.finish('shutdown');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
    await this.sandboxes.stopAll();
  }

  /** Sends the task to the solver and waits for the first of: finished, solver done, time limit. */
  private async handOver(context: TaskContext, prepared: PreparedTask, to: { solverUrl: string; shownKey: string }, log: (line: string) => void): Promise<FinishReason> {
    const { solverUrl } = to;
    const limitMs = this.config.TASK_TIMEOUT_S * 1000;
    const description = renderTaskDescription(this.template, {
      taskKey: to.shownKey,
      errorPath: `${WORKSPACE}/${basename(prepared.errorReportPath)}`,
      errorReport: prepared.errorReport,
      imageNote: context.sandbox.kind === 'docker' ? 'Inside this sandbox the original build tree is also at `/src`.' : '',
    });
    const timer = setTimeout(() => context.finish('timeout'), limitMs);
    const conversation = new SolverConversation({
      context,
      solver: this.peers.peer(solverUrl),
      execute: (command) => this.executeIn(context, command),
      log,
      trace: (line) => this.logger.log(line),
      deadline: Date.now() + limitMs,
    });
    const solver = conversation.run(description);
    try {
      const reason = await Promise.race([context.finishing, solver, context.broken]);
      if (reason === 'finished') await settledWithin(solver, SOLVER_EXIT_GRACE_MS);
      context.handover.abort();
      await conversation.close(formatTaskCompleted({ commandsExecuted: context.commands, failed: context.failedCommands, timeSeconds: context.elapsedSeconds() }));
      return reason;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `loc.json` as the solver left it in the sandbox; null when it is not there. */
  private async submissionText(context: TaskContext): Promise<string | null> {
    try {
      return (await context.sandbox.readFile(LOC_JSON_PATH)).toString('utf8');
    } catch {
      return null;
    }
  }

  private outcome(context: TaskContext, finishReason: FinishReason, metrics: TaskMetrics, started: number, evidence: TaskEvidence): TaskOutcome {
    return {
      evidence: { ...evidence, trajectory: context.solverExit?.trajectory ?? null },
      taskKey: context.taskKey,
      contextId: context.contextId,
      finishReason,
      metrics: withSolverExit(metrics, context.solverExit),
      commands: context.commands,
      failedCommands: context.failedCommands,
      seconds: (Date.now() - started) / 1000,
    };
  }
}

/** The outcome of a task that never started. */
function notStarted(ref: TaskRef, metrics: TaskMetrics): TaskOutcome {
  const evidence = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: null };
  return { taskKey: ref.key, contextId: '', finishReason: 'error', metrics, commands: 0, failedCommands: 0, seconds: 0, evidence };
}

/** Waits for `promise` to settle, for at most `ms`. */
async function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
