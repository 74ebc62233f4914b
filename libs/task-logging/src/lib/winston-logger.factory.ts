import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoggerService, OnApplicationShutdown } from '@nestjs/common';
import { createLogger, format, type Logger as WinstonLogger } from 'winston';
import { ProcessTable } from '@arvo-rca/common';
import { AppendOnlyFile } from './append-only-file';
import { TASK_SCOPE, type AgentName, type LogEvent, type TaskLogLevel } from './log-line';
import { ConsoleLines, ConsoleTransport, TaskFileTransport, type ConsoleOutput } from './log-transports';
import { RunDirectoryResolver } from './run-directory-resolver';
import { TaskAliases } from './task-aliases';
import { BOUNDS_CONTEXT, TaskAwareNestLogger } from './task-aware-nest-logger';
import { DEFAULT_LOG_BOUNDS, TaskLogBudget, type LogBounds } from './task-log-budget';
import { TaskLogFiles } from './task-log-files';
import { TaskLogScope, type LoggedTask } from './task-log-scope';
import { systemReason, TaskLoggingError } from './task-logging-error';

const AGENTS_LOG_FILE = 'agents.log';

export interface TaskLoggingOptions {
  agent: AgentName;
  /** LOG_DIR: runs get their directory under it. */
  logDir: string;
  /** LOG_RUN_DIR: the run directory a launcher chose for both agents. */
  runDir?: string;
  /** LOG_LEVEL: the least severe level written, to the files and the console alike. */
  level: TaskLogLevel;
  /** Console lines; by default stdout/stderr, coloured when stdout is a terminal. `false`: files only. */
  console?: ConsoleOutput | false;
  /** Freshness rule of `.current_run` (see RunDirectoryResolver); default two minutes. */
  recentRunMs?: number;
  /** Names the run directory and stamps the lines; the system clock unless a test moves it. */
  clock?: () => Date;
  /** LOG_LINE_MAX_BYTES and LOG_TASK_MAX_BYTES; DEFAULT_LOG_BOUNDS where left out. */
  bounds?: Partial<LogBounds>;
}

/**
 * The logging of one agent process: its run directory, agents.log, the per-task files, and the Nest
 * logger that routes every line by the task scope of the code that logged it (AsyncLocalStorage).
 */
export class WinstonLoggerFactory implements OnApplicationShutdown {
  private readonly scopes = new AsyncLocalStorage<TaskLogScope>();
  private readonly taskFiles: TaskLogFiles;
  private readonly aliases: TaskAliases;
  private readonly winston: WinstonLogger;
  private readonly clock: () => Date;
  private readonly bounds: LogBounds;
  private readonly console: ConsoleLines | undefined;

  private constructor(
    readonly agent: AgentName,
    readonly runDirectory: string,
    private readonly agentsLog: AppendOnlyFile,
    options: TaskLoggingOptions,
  ) {
    this.taskFiles = new TaskLogFiles(runDirectory);
    this.aliases = new TaskAliases(runDirectory);
    this.clock = options.clock ?? (() => new Date());
    this.bounds = { ...DEFAULT_LOG_BOUNDS, ...options.bounds };
    const consoleOutput = options.console ?? defaultConsole();
    this.console = consoleOutput ? new ConsoleLines(consoleOutput) : undefined;
    const consoleTransport = this.console && consoleOutput ? [new ConsoleTransport(this.console, consoleOutput.colors, agent)] : [];
    this.winston = createLogger({
      level: options.level,
      exitOnError: false,
      // Each transport writes its own text: winston's default here (JSON of every line) was made and never read.
      format: format((info) => info)(),
      transports: [new TaskFileTransport(agentsLog, agent), ...consoleTransport],
    });
  }

  /** Settles the run directory and opens agents.log; a LOG_DIR that cannot be written fails here, at boot. */
  static async open(options: TaskLoggingOptions): Promise<WinstonLoggerFactory> {
    const resolver = new RunDirectoryResolver(new ProcessTable(), options.clock);
    const runDirectory = await resolver.resolve({ logDir: options.logDir, runDir: options.runDir, recentMs: options.recentRunMs });
    const agentsLogPath = join(runDirectory, AGENTS_LOG_FILE);
    let agentsLog: AppendOnlyFile;
    try {
      agentsLog = AppendOnlyFile.open(agentsLogPath);
    } catch (error) {
      throw new TaskLoggingError('LOG_DIR_UNWRITABLE', `cannot write ${agentsLogPath}: ${systemReason(error)}`, { cause: error });
    }
    return new WinstonLoggerFactory(options.agent, runDirectory, agentsLog, options);
  }

  /** The logger for `app.useLogger`: every Nest `Logger` of the app then logs through this factory. */
  createNestLogger(): LoggerService {
    return new TaskAwareNestLogger(this.winston, () => this.scopes.getStore(), this.clock, this.bounds.lineBytes);
  }

  /**
   * Starts a task for the logs: opens (or shares) `<source>_<id>.log`, that of the task its id is an
   * alias of if the run directory records one. Run the task's code through `scope.run`, as often as
   * messages about it arrive, and call `scope.end()` when the task is over. A task with an `alias`
   * records it first, so that whoever opens the alias later writes into this task's file.
   */
  openTask(task: LoggedTask): TaskLogScope {
    if (task.alias !== undefined) this.aliases.record(task.alias, task.taskId);
    const logId = this.aliases.resolve(task.taskId);
    const file = this.taskFiles.acquire(logId);
    const closing = (scope: TaskLogScope): void => {
      this.writeLeftOut(scope);
      this.taskFiles.release(logId);
    };
    return new TaskLogScope({ ...task }, file, this.scopes, closing, new TaskLogBudget(this.bounds.taskBytes));
  }

  /** A task whose whole life is one async function: opened, run, and ended however `fn` finishes. */
  async runInTask<T>(task: LoggedTask, fn: () => Promise<T> | T): Promise<T> {
    const scope = this.openTask(task);
    try {
      return await scope.run(fn);
    } finally {
      scope.end();
    }
  }

  /** The task whose scope the calling code runs in, if any. */
  currentTask(): Readonly<LoggedTask> | undefined {
    return this.scopes.getStore()?.task;
  }

  /** `trajectories/` or `results/` of this run, created on first use. */
  async runSubdirectory(name: 'trajectories' | 'results'): Promise<string> {
    const dir = join(this.runDirectory, name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  // What a task's bound left out of its log, said in its file (and on the console) as it ends.
  private writeLeftOut(scope: TaskLogScope): void {
    const note = scope.budget.leftOutNote();
    if (note) this.winston.log({ level: 'warn', message: note, context: BOUNDS_CONTEXT, time: this.clock(), [TASK_SCOPE]: scope } satisfies LogEvent);
  }

  /** Releases every descriptor; lines logged afterwards still reach their files, one open per line, and the console at once. */
  close(): void {
    this.console?.close();
    this.taskFiles.closeAll();
    this.agentsLog.close();
  }

  onApplicationShutdown(): void {
    this.close();
  }
}

function defaultConsole(): ConsoleOutput {
  const colors = process.stdout.isTTY === true && !process.env['NO_COLOR'];
  return { out: process.stdout, err: process.stderr, colors };
}
