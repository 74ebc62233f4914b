import { isAbsolute, normalize } from 'node:path';
import { isRecord, UsageLedger, type LedgerFormat } from '@arvo-rca/common';
import { TASK_FILE_NAMES, type TaskFileName } from '../task-source';

/** A task's data that this green agent downloaded itself: its files, their sizes, and when a task last used them. */
export interface DownloadedTaskData {
  /** The task's folder in the cache, relative to it: `<originKey>/<id>`. */
  folder: string;
  /** The task id that needs it, as assessments hold it. */
  task: string;
  /** The bytes of each file downloaded here; a file already in the cache is not among them. */
  files: Partial<Record<TaskFileName, number>>;
  lastUsed: number;
}

const FORMAT: LedgerFormat<DownloadedTaskData> = { name: 'task-data-downloaded.json', list: 'tasks', key: (entry) => entry.folder, isEntry: isInsideCache };

/** What the recorded files of a task take. */
export function downloadedBytes(entry: DownloadedTaskData): number {
  return Object.values(entry.files).reduce((sum, bytes) => sum + bytes, 0);
}

/**
 * The task data the green agent downloaded itself, in `<cacheDir>/task-data-downloaded.json`: the only
 * files its disk budget may remove.
 */
export class TaskDataLedger extends UsageLedger<DownloadedTaskData> {
  constructor(cacheDir: string) {
    super(cacheDir, FORMAT);
  }

  /** A file of the task, downloaded here just now: recorded with its size, the task used now. */
  async record(folder: string, task: string, file: TaskFileName, bytes: number, now = Date.now()): Promise<DownloadedTaskData> {
    const before = await this.get(folder);
    const entry = { folder, task, files: { ...before?.files, [file]: bytes }, lastUsed: now };
    await this.put(entry);
    return entry;
  }

  /** Forgets a file of the task (gone meanwhile), or all of them. */
  override async forget(folder: string, file?: TaskFileName): Promise<void> {
    const entry = await this.get(folder);
    if (!entry) return;
    if (file) delete entry.files[file];
    if (!file || Object.keys(entry.files).length === 0) await super.forget(folder);
    else await this.save();
  }
}

// An entry names only the cache's own task folders and files: whatever the file says, nothing outside is removed.
function isInsideCache(entry: unknown): entry is DownloadedTaskData {
  if (!isRecord(entry) || typeof entry.folder !== 'string' || typeof entry.task !== 'string' || typeof entry.lastUsed !== 'number') return false;
  const { folder, files } = entry;
  const within = !isAbsolute(folder) && normalize(folder) === folder && folder.split('/').length === 2 && !folder.split('/').includes('..');
  const names: readonly string[] = TASK_FILE_NAMES;
  return within && isRecord(files) && Object.entries(files).every(([name, bytes]) => names.includes(name) && typeof bytes === 'number');
}
