import type { AsyncLocalStorage } from 'node:async_hooks';
import type { AppendOnlyFile } from './append-only-file';
import { shortContextId } from './run-directory';
import type { TaskLogBudget } from './task-log-budget';

/** A task as the logs know it: its task id (`arvo:14368`) and its A2A context id. */
export interface LoggedTask {
  taskId: string;
  contextId: string;
  /** Another id the task is known by (the masked id the solver was given): its lines join this task's file. */
  alias?: string;
}

/**
 * One task's logging scope. Code run through `run` (and everything it awaits, schedules or streams)
 * logs into the task's file. `end` lets go of the file; lines logged in the scope afterwards go to
 * agents.log, marked as late, and never reopen the task's file.
 */
export class TaskLogScope {
  readonly shortContextId: string;
  /** The task's log file (`<run dir>/<source>_<id>.log`, that of the task its id is an alias of if there is one). */
  readonly logFile: string;
  private file: AppendOnlyFile | undefined;

  constructor(
    readonly task: Readonly<LoggedTask>,
    file: AppendOnlyFile,
    private readonly storage: AsyncLocalStorage<TaskLogScope>,
    /** Called once at the end, while the file is still the scope's: it may write a last line, then lets go of the file. */
    private readonly closing: (scope: TaskLogScope) => void,
    /** What this task may still write (LOG_TASK_MAX_BYTES); its lines after the end count against it too. */
    readonly budget: TaskLogBudget,
  ) {
    this.file = file;
    this.logFile = file.path;
    this.shortContextId = shortContextId(task.contextId);
  }

  get ended(): boolean {
    return this.file === undefined;
  }

  /** The file this scope's lines go to now; undefined once the task has ended. */
  get destination(): AppendOnlyFile | undefined {
    return this.file;
  }

  /** Runs `fn` inside this task's scope: what it logs, now or later in its async chain, is the task's. */
  run<T>(fn: () => T): T {
    return this.storage.run(this, fn);
  }

  /** Ends the task for the logs (idempotent): its file handle is released. */
  end(): void {
    if (this.file === undefined) return;
    this.closing(this);
    this.file = undefined;
  }
}
