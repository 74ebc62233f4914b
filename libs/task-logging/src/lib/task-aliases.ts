import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isTaskId } from '@arvo-rca/common';
import { taskFileStem } from './run-directory';
import { systemReason, TaskLoggingError } from './task-logging-error';

/** The run directory's folder of aliases: one small file per alias, named after it, holding the task id. */
export const TASK_ALIASES_FOLDER = 'task-aliases';

/**
 * The ids a task is known by besides its own, in the run directory both agents share: the green agent
 * records the masked id it gives the solver (`task:dc1b52db` → `sample:1`) before the hand-over, and the
 * purple agent's lines about that key then go into the task's own log. The solver's commands never reach
 * this directory; a purple agent on another disk finds no alias and logs under its masked id.
 */
export class TaskAliases {
  private readonly folder: string;

  constructor(runDirectory: string) {
    this.folder = join(runDirectory, TASK_ALIASES_FOLDER);
  }

  /** Records that `alias` names `taskId`; written whole and renamed into place, so no reader sees half of it. */
  record(alias: string, taskId: string): void {
    const path = join(this.folder, taskFileStem(alias));
    const partial = `${path}.${process.pid}.partial`;
    try {
      mkdirSync(this.folder, { recursive: true });
      writeFileSync(partial, taskId);
      renameSync(partial, path);
    } catch (error) {
      throw new TaskLoggingError('TASK_LOG_UNWRITABLE', `cannot record ${alias} as an alias of ${taskId} in ${this.folder}: ${systemReason(error)}`, {
        cause: error,
      });
    }
  }

  /** The task `taskId` is an alias of, or `taskId` itself when it is none (or its record is unreadable). */
  resolve(taskId: string): string {
    try {
      const target = readFileSync(join(this.folder, taskFileStem(taskId)), 'utf8');
      return isTaskId(target) ? target : taskId;
    } catch {
      // No alias (the usual case, and the only one on another disk): the task logs under its own id.
      return taskId;
    }
  }
}
