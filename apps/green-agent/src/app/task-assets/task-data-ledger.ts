import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { writeJsonAtomic } from '@arvo-rca/run-record';
import { isRecord } from '@arvo-rca/common';
import { TASK_FILE_NAMES, type TaskFileName } from './task-source';

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

const FILE = 'task-data-downloaded.json';

/** What the recorded files of a task take. */
export function downloadedBytes(entry: DownloadedTaskData): number {
  return Object.values(entry.files).reduce((sum, bytes) => sum + bytes, 0);
}

/**
 * The task data the green agent downloaded itself, in `<cacheDir>/task-data-downloaded.json`: the only
 * files its disk budget may remove. Least recently used first, in the file too, so that two uses in the
 * same millisecond keep their order across a restart.
 */
export class TaskDataLedger {
  private entries?: Map<string, DownloadedTaskData>;

  constructor(private readonly cacheDir: string) {}

  get path(): string {
    return join(this.cacheDir, FILE);
  }

  /** The downloaded task data, least recently used first. */
  async downloaded(): Promise<DownloadedTaskData[]> {
    return [...(await this.load()).values()].sort((a, b) => a.lastUsed - b.lastUsed);
  }

  /** A file of the task, downloaded here just now: recorded with its size, the task used now. */
  async record(folder: string, task: string, file: TaskFileName, bytes: number, now = Date.now()): Promise<DownloadedTaskData> {
    const entries = await this.load();
    const entry = entries.get(folder) ?? { folder, task, files: {}, lastUsed: now };
    entry.files[file] = bytes;
    this.use(entry, now);
    await this.save();
    return entry;
  }

  /** Marks the task's data as used now; data it did not download stays unrecorded. */
  async touch(folder: string, now = Date.now()): Promise<void> {
    const entry = (await this.load()).get(folder);
    if (!entry) return;
    this.use(entry, now);
    await this.save();
  }

  /** Forgets a file of the task (gone meanwhile), or all of them. */
  async forget(folder: string, file?: TaskFileName): Promise<void> {
    const entries = await this.load();
    const entry = entries.get(folder);
    if (!entry) return;
    if (file) delete entry.files[file];
    if (!file || Object.keys(entry.files).length === 0) entries.delete(folder);
    await this.save();
  }

  // Last in the map is the most recently used.
  private use(entry: DownloadedTaskData, now: number): void {
    entry.lastUsed = now;
    this.entries?.delete(entry.folder);
    this.entries?.set(entry.folder, entry);
  }

  private async load(): Promise<Map<string, DownloadedTaskData>> {
    if (this.entries) return this.entries;
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{"tasks":[]}';
      throw error;
    });
    const { tasks } = JSON.parse(text) as { tasks: unknown[] };
    this.entries = new Map(tasks.filter(isInsideCache).map((entry) => [entry.folder, entry]));
    return this.entries;
  }

  private async save(): Promise<void> {
    await writeJsonAtomic(this.path, { tasks: [...(this.entries ?? new Map()).values()] });
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
