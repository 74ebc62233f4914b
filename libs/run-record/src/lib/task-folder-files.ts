// A task's folder in a record: its files beside result.json, written first, then result.json, atomically.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskFiles, TaskRecord } from '@arvo-rca/results';
import { writeFileAtomic, writeJsonAtomic } from '@arvo-rca/common';
import { taskFolderName } from './task-folder';

/** The files a task's folder may hold beside its `result.json`, and the field of `TaskFiles` that names each. */
export const TASK_FOLDER_FILES = {
  'crash.txt': 'crash_report',
  'fix.diff': 'fix',
  'loc.json': 'submission',
  'sources.json': 'sources',
  'trajectory.json': 'trajectory',
} as const satisfies Record<string, keyof TaskFiles>;

export type TaskFolderFileName = keyof typeof TASK_FOLDER_FILES;

/** The files of a task's folder beside its `result.json`, by name, as written. */
export type TaskFolderFiles = Partial<Record<TaskFolderFileName, string>>;

/** A task as its folder in a record holds it: its `result.json`, and the files beside it. */
export interface TaskFolder {
  record: TaskRecord;
  files: TaskFolderFiles;
}

export function isTaskFolderFileName(name: string): name is TaskFolderFileName {
  return Object.hasOwn(TASK_FOLDER_FILES, name);
}

/** The task's folder in the record at `recordFolder`. */
export function taskFolderOf(recordFolder: string, resultKey: string): string {
  return join(recordFolder, 'tasks', taskFolderName(resultKey));
}

/** Writes the task's files, then its `result.json`: a task is in the record once that file is. */
export async function writeTaskFolder(recordFolder: string, task: TaskFolder): Promise<void> {
  const folder = taskFolderOf(recordFolder, task.record.task);
  await mkdir(folder, { recursive: true });
  for (const [name, content] of Object.entries(task.files)) await writeFileAtomic(join(folder, name), content);
  await writeJsonAtomic(join(folder, 'result.json'), task.record);
}

/** A recorded task with the files of its folder that are there (a file gone is left out). */
export async function readTaskFolder(recordFolder: string, record: TaskRecord): Promise<TaskFolder> {
  const folder = taskFolderOf(recordFolder, record.task);
  const files: TaskFolderFiles = {};
  for (const name of Object.keys(TASK_FOLDER_FILES).filter(isTaskFolderFileName)) {
    const content = await readFile(join(folder, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (content !== undefined) files[name] = content;
  }
  return { record, files };
}
