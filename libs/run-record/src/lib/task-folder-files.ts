// A task's folder in a record: its files beside its record, written first, then its record, atomically.
import { mkdir, readFile } from 'node:fs/promises';
import type { TaskRecord } from '@arvo-rca/results';
import { writeFileAtomic, writeJsonAtomic } from '@arvo-rca/common';
import { isTaskFolderFileName, RecordLayout, TASK_FOLDER_FILES, type TaskFolderFileName } from './record-layout';

/** The files of a task's folder beside its record, by name, as written. */
export type TaskFolderFiles = Partial<Record<TaskFolderFileName, string>>;

/** A task as its folder in a record holds it: its record, and the files beside it. */
export interface TaskFolder {
  record: TaskRecord;
  files: TaskFolderFiles;
}

/** Writes the task's files, then its record (`task.json`): a task is in the record once that file is. */
export async function writeTaskFolder(layout: RecordLayout, task: TaskFolder): Promise<void> {
  const key = task.record.task;
  await mkdir(layout.taskFolder(key), { recursive: true });
  for (const [name, content] of Object.entries(task.files)) {
    if (isTaskFolderFileName(name)) await writeFileAtomic(layout.taskFile(key, name), content);
  }
  await writeJsonAtomic(layout.taskFile(key), task.record);
}

/** A recorded task with the files of its folder that are there (a file gone is left out). */
export async function readTaskFolder(recordFolder: string, record: TaskRecord): Promise<TaskFolder> {
  const layout = new RecordLayout(recordFolder);
  const files: TaskFolderFiles = {};
  for (const name of Object.keys(TASK_FOLDER_FILES).filter(isTaskFolderFileName)) {
    const content = await readFile(layout.taskFile(record.task, name), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (content !== undefined) files[name] = content;
  }
  return { record, files };
}
