import { join } from 'node:path';
import { AppendOnlyFile } from './append-only-file';
import { taskLogFileName } from './run-directory';
import { systemReason, TaskLoggingError } from './task-logging-error';

interface OpenTaskFile {
  file: AppendOnlyFile;
  holders: number;
}

/**
 * The open task log files of this process, one per task id, shared by the tasks running on that id
 * (two tasks on `arvo:1` write into `arvo_1.log` together). A file is closed when its last task ends.
 */
export class TaskLogFiles {
  private readonly open = new Map<string, OpenTaskFile>();

  constructor(private readonly runDirectory: string) {}

  acquire(taskId: string): AppendOnlyFile {
    const entry = this.open.get(taskId) ?? this.openFile(taskId);
    entry.holders += 1;
    return entry.file;
  }

  release(taskId: string): void {
    const entry = this.open.get(taskId);
    if (!entry) return;
    entry.holders -= 1;
    if (entry.holders > 0) return;
    this.open.delete(taskId);
    entry.file.close();
  }

  /** Ids of the tasks whose file is open now. */
  openTaskIds(): string[] {
    return [...this.open.keys()];
  }

  closeAll(): void {
    for (const entry of this.open.values()) entry.file.close();
    this.open.clear();
  }

  private openFile(taskId: string): OpenTaskFile {
    const path = join(this.runDirectory, taskLogFileName(taskId));
    try {
      const entry = { file: AppendOnlyFile.open(path), holders: 0 };
      this.open.set(taskId, entry);
      return entry;
    } catch (error) {
      throw new TaskLoggingError('TASK_LOG_UNWRITABLE', `cannot open the log of task ${taskId} at ${path}: ${systemReason(error)}`, { cause: error });
    }
  }
}
