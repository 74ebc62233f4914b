import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { A2aClientFactory, formatCommandRejected, formatTaskCompleted, NO_RUNNING_TASK } from '@arvo-rca/a2a-protocol';
import { SANDBOX_FACTORY, type SandboxBackendName, type SandboxFactory } from '@arvo-rca/sandbox';
import { GroundTruthExtractor, interruptedTask } from '@arvo-rca/rca-eval';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import type { TaskRef } from '@arvo-rca/common';
import { TaskAssetsService } from '../task-assets';
import { GreenConfig } from '../green-config';
import type { TaskContext } from './task-context';
import { NO_EVIDENCE, ranTask, type RanTask } from './ran-task';
import { runSolverCommand } from './conversation/solver-command';
import { formatReplyResult } from './dialects';
import type { TaskOrder } from './task-order';
import { CANCELED, SHUTTING_DOWN, TaskRun } from './task-run';
import type { RunningTasks, TaskRunDeps } from './task-run-deps';
import { loadTemplate } from './conversation/task-description';

// How long shutdown waits for running tasks to clean up after themselves.
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * Holds every running task under its context id: starts each task's run (see TaskRun), serves the
 * commands the solver sends on a task's context, and ends every task once at shutdown. A task finishes
 * exactly once, whichever way it ends, and leaves no container or workspace behind.
 */
@Injectable()
export class TaskContextService implements BeforeApplicationShutdown, RunningTasks {
  private readonly logger = new Logger(TaskContextService.name);
  private readonly contexts = new Map<string, TaskContext>();
  private readonly running = new Set<Promise<RanTask>>();
  private readonly deps: TaskRunDeps;
  private shutdown: Promise<void> | undefined;
  private closed = false;

  constructor(
    assets: TaskAssetsService,
    @Inject(SANDBOX_FACTORY) private readonly sandboxes: SandboxFactory,
    groundTruth: GroundTruthExtractor,
    peers: A2aClientFactory,
    @Inject(GreenConfig) config: GreenConfig,
    private readonly logging: WinstonLoggerFactory,
  ) {
    const template = loadTemplate('task-description.md');
    this.deps = {
      assets,
      sandboxes,
      groundTruth,
      peers,
      running: this,
      logger: this.logger,
      template,
      taskTimeoutS: config.TASK_TIMEOUT_S,
      commandTimeoutS: config.COMMAND_TIMEOUT_S,
    };
  }

  /** Set once shutdown begins: no task starts any more, and one still being prepared gets no sandbox. */
  get closing(): boolean {
    return this.closed;
  }

  /**
   * Runs one task with the solver at `order.solverUrl`: prepare, start, hand over, score, record, clean
   * up. Never throws: a task that cannot run is recorded with status `failed` (or `interrupted`).
   */
  async runTask(ref: TaskRef, order: TaskOrder): Promise<RanTask> {
    const unstarted = { taskId: ref.taskId, maskedId: order.maskedId, contextId: '', evidence: NO_EVIDENCE };
    if (this.closing) return ranTask(unstarted, 'error', interruptedTask(SHUTTING_DOWN));
    if (order.signal?.aborted) return ranTask(unstarted, 'error', interruptedTask(CANCELED));
    const run = this.runLogged(ref, order);
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  /** The task's run inside its own log scope. */
  private async runLogged(ref: TaskRef, order: TaskOrder): Promise<RanTask> {
    const contextId = randomUUID();
    // The masked id is recorded as the task's alias: the solver's lines about it join the task's log.
    const scope = this.logging.openTask({ taskId: ref.taskId, contextId, alias: order.maskedId });
    const evidence = { ...NO_EVIDENCE, log: scope.logFile };
    try {
      return await scope.run(() => new TaskRun(this.deps, ref, order, contextId, scope, evidence).run());
    } finally {
      scope.end();
    }
  }

  add(context: TaskContext): void {
    this.contexts.set(context.contextId, context);
  }

  remove(contextId: string): void {
    this.contexts.delete(contextId);
  }

  /** Runs `execute: <command>` from the solver in the task's own sandbox; the reply text. */
  async execute(contextId: string, command: string): Promise<string> {
    const context = this.contexts.get(contextId);
    if (!context) return formatCommandRejected(NO_RUNNING_TASK);
    return formatReplyResult(await context.logScope.run(() => runSolverCommand(context, command, this.logger)));
  }

  /** `[TASK FINISHED]` from the solver: the task ends now and is scored. */
  finish(contextId: string): string {
    const context = this.contexts.get(contextId);
    if (!context) return formatCommandRejected(NO_RUNNING_TASK);
    context.logScope.run(() => this.logger.log('the solver finished the task'));
    context.finish('finished');
    return formatTaskCompleted({ commandsExecuted: context.commands, failed: context.failedCommands, timeSeconds: context.elapsedSeconds() });
  }

  /** What `concurrency` tasks at once would take of the running tasks' disk, when it holds fewer. */
  diskOutlook(concurrency: number): Promise<string | undefined> {
    return this.sandboxes.diskOutlook(concurrency);
  }

  /** The sandbox every task of this agent runs in. */
  get sandbox(): SandboxBackendName {
    return this.sandboxes.backend;
  }

  isRunning(contextId: string): boolean {
    return this.contexts.has(contextId);
  }

  /**
   * On SIGTERM/SIGINT: every running task ends now and its own cleanup removes its sandbox and workspace;
   * shutdown waits for that, bounded. What is still there after is the sandbox module's to remove, at
   * application shutdown. Before, not on, application shutdown: the HTTP server closes in between and
   * waits for open requests, and a running task holds two (the requester's stream and the solver's command).
   */
  beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    return (this.shutdown ??= this.endAll());
  }

  private async endAll(): Promise<void> {
    for (const context of this.contexts.values()) context.finish('shutdown');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((resolve) => (timer = setTimeout(resolve, SHUTDOWN_GRACE_MS)));
    await Promise.race([Promise.allSettled([...this.running]), grace]);
    clearTimeout(timer);
  }
}
