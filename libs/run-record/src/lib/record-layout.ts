// Where each file of a run record is: the one owner of the record's layout, which everyone who reads or
// writes a record asks for a path.
//
//   <run dir>/assessments/<record id>/
//     assessment.json           what was asked, of whom, under which scoring settings (AssessmentFile)
//     .session.lock             the session writing the record now (RecordLock); no reader looks at it
//     tasks/<task folder>/
//       crash.txt fix.diff loc.json sources.json trajectory.json   what the viewer shows of the task, written first
//       task.json               the task's record (TaskRecord), written last and atomically: its commit point
//                               (`result.json` in records made before it had its own name)
//     result.json               the Result over every task recorded so far
import { dirname, join } from 'node:path';
import type { TaskFiles } from '@arvo-rca/results';
import { isTaskId } from '@arvo-rca/common';
import { RecordError } from './record-error';

/** Where records live inside a run directory. */
export const RECORDS_FOLDER = 'assessments';

/** The lock's file in a record's folder (RecordLock); no record reader looks at it. */
export const RECORD_LOCK_FILE = '.session.lock';

/** The folder of `runDir` that holds its records, one folder each. */
export function recordsFolderOf(runDir: string): string {
  return join(runDir, RECORDS_FOLDER);
}

/** A task's record in its folder. */
export const TASK_RECORD_FILE = 'task.json';
/** A task's record in its folder, in records made before it had a name of its own (the Result's name). */
export const EARLIER_TASK_RECORD_FILE = 'result.json';

/** The names a task's record may have in its folder, the one written today first. */
const TASK_RECORD_FILES = [TASK_RECORD_FILE, EARLIER_TASK_RECORD_FILE] as const;
export type TaskRecordFileName = (typeof TASK_RECORD_FILES)[number];

/** The files a task's folder may hold beside its record, and the field of `TaskFiles` that names each. */
export const TASK_FOLDER_FILES = {
  'crash.txt': 'crash_report',
  'fix.diff': 'fix',
  'loc.json': 'submission',
  'sources.json': 'sources',
  'trajectory.json': 'trajectory',
} as const satisfies Record<string, keyof TaskFiles>;

export type TaskFolderFileName = keyof typeof TASK_FOLDER_FILES;

export function isTaskFolderFileName(name: string): name is TaskFolderFileName {
  return Object.hasOwn(TASK_FOLDER_FILES, name);
}

/** The paths of one record, whose folder is `folder` (`<run dir>/assessments/<record id>`). */
export class RecordLayout {
  constructor(readonly folder: string) {}

  /** The record `id` in `runDir`. */
  static of(runDir: string, id: string): RecordLayout {
    return new RecordLayout(join(recordsFolderOf(runDir), id));
  }

  /** The run directory that holds the record. */
  get runDir(): string {
    return dirname(dirname(this.folder));
  }

  get assessmentFile(): string {
    return join(this.folder, 'assessment.json');
  }

  /** The Result over every task recorded. */
  get resultFile(): string {
    return join(this.folder, 'result.json');
  }

  get lockFile(): string {
    return join(this.folder, RECORD_LOCK_FILE);
  }

  get tasksFolder(): string {
    return join(this.folder, 'tasks');
  }

  /** The folder of the task whose result key is `resultKey`. */
  taskFolder(resultKey: string): string {
    return join(this.tasksFolder, taskFolderName(resultKey));
  }

  /** A file of the task's folder: its record (`task.json` unless named) or one of the files beside it. */
  taskFile(resultKey: string, name: TaskFolderFileName | TaskRecordFileName = TASK_RECORD_FILE): string {
    return join(this.taskFolder(resultKey), name);
  }

  /** Where the task's record may be, the name written today first: a reader takes the first that is there. */
  taskRecordFiles(resultKey: string): { name: TaskRecordFileName; path: string }[] {
    return TASK_RECORD_FILES.map((name) => ({ name, path: this.taskFile(resultKey, name) }));
  }
}

// A result key: the task id, and `#<n>` for the same id requested again.
const RESULT_KEY = /^([^#]*)(#[0-9]+)?$/;

/** `sample_1` for `sample:1`, `sample_1#2` for `sample:1#2`: the task's folder under `tasks/`. */
export function taskFolderName(resultKey: string): string {
  const [, taskId, repeat] = RESULT_KEY.exec(resultKey) ?? [];
  if (taskId === undefined || !isTaskId(taskId)) {
    throw new RecordError('RECORD_DAMAGED', `task ${JSON.stringify(resultKey)} is not <source>:<id> with letters, digits, _ or -`);
  }
  return `${taskId.replace(':', '_')}${repeat ?? ''}`;
}
