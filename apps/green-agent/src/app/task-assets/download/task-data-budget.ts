import { join } from 'node:path';
import { formatBytes } from '@arvo-rca/common';
import type { AssetLog } from './download-progress';
import type { DownloadRoom, RoomReservation } from './file-downloader';
import type { NeededTaskData } from './needed-task-data';
import { downloadedBytes, type DownloadedTaskData, type TaskDataLedger } from './task-data-ledger';
import type { TaskFileSystem } from '../task-file-system';
import type { TaskFileName } from '../task-source';

/** One file of a task, as the cache keeps it: `<cacheDir>/<folder>/<file>`. */
export interface CachedTaskFile {
  folder: string;
  task: string;
  file: TaskFileName;
}

/** Room set aside for a download under way, until its file is recorded or its attempt fails. */
interface Reserved {
  folder: string;
  bytes: number;
}

/**
 * Keeps the task data the green agent downloaded itself within `budgetBytes` of its cache. Before a file's
 * body is written (its size known from the headers, else taken as the largest file of that name downloaded
 * so far), it removes the least recently used task data it downloaded that no task needs, until what it
 * downloaded, the room set aside for the downloads under way and this file fit. It never removes a file
 * it did not write: one that was in the cache before, a file put beside it, the images' record.
 */
export class TaskDataBudget {
  private readonly reserved = new Set<Reserved>();
  // One download's accounting at a time: two downloads at once must not both count the room one removal made.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly cacheDir: string,
    private readonly ledger: TaskDataLedger,
    private readonly needed: NeededTaskData,
    readonly budgetBytes: number,
    private readonly files: TaskFileSystem,
  ) {}

  /** A task used the data in `folder`: when it was downloaded here, it was used now. */
  used(folder: string): Promise<void> {
    return this.serial(() => this.ledger.touch(folder));
  }

  /** The room for a download of `target`, as the file downloader asks for it once the size is known. */
  room(target: CachedTaskFile, say: AssetLog): DownloadRoom {
    return (bytes) => this.serial(() => this.reserve(target, bytes, say));
  }

  private async reserve(target: CachedTaskFile, bytes: number | undefined, say: AssetLog): Promise<RoomReservation> {
    const downloaded = await this.present(await this.ledger.list());
    const expected = bytes ?? Math.max(0, ...downloaded.map((entry) => entry.files[target.file] ?? 0));
    const reservedBytes = (folder?: string): number =>
      [...this.reserved].filter((room) => folder === undefined || room.folder === folder).reduce((sum, room) => sum + room.bytes, 0);
    const own = downloaded.filter((entry) => entry.folder === target.folder).reduce((sum, entry) => sum + downloadedBytes(entry), reservedBytes(target.folder));
    let total = downloaded.reduce((sum, entry) => sum + downloadedBytes(entry), reservedBytes());
    for (const entry of downloaded) {
      if (total + expected <= this.budgetBytes) break;
      if (entry.folder === target.folder || this.needed.isNeeded(entry.task)) continue;
      if (await this.remove(entry, say)) total -= downloadedBytes(entry);
    }
    // A task that alone passes the budget says so once its file is here.
    if (total + expected > this.budgetBytes && own + expected <= this.budgetBytes)
      say(
        `task data budget: the task data downloaded here takes ${formatBytes(total)} of ${formatBytes(this.budgetBytes)}, and none of the rest may go (still needed, or not removable); downloading ${target.file} of ${target.task} anyway`,
      );
    const room: Reserved = { folder: target.folder, bytes: expected };
    this.reserved.add(room);
    return {
      done: (written) =>
        this.serial(async () => {
          this.reserved.delete(room);
          await this.recorded(target, written, say);
        }),
      drop: () => void this.reserved.delete(room),
    };
  }

  private async recorded(target: CachedTaskFile, written: number, say: AssetLog): Promise<void> {
    const entry = await this.ledger.record(target.folder, target.task, target.file, written);
    const bytes = downloadedBytes(entry);
    if (bytes > this.budgetBytes && bytes - written <= this.budgetBytes)
      say(`task data budget: ${target.task} alone takes ${formatBytes(bytes)}, more than the budget of ${formatBytes(this.budgetBytes)}; its task runs anyway`);
  }

  // The recorded files still in the cache, with their size now; those gone meanwhile are forgotten.
  private async present(entries: DownloadedTaskData[]): Promise<DownloadedTaskData[]> {
    const present: DownloadedTaskData[] = [];
    for (const entry of entries) {
      const files: DownloadedTaskData['files'] = {};
      for (const file of Object.keys(entry.files) as TaskFileName[]) {
        const bytes = await this.files.fileSize(join(this.cacheDir, entry.folder, file));
        if (bytes === undefined) await this.ledger.forget(entry.folder, file);
        else files[file] = bytes;
      }
      if (Object.keys(files).length > 0) present.push({ ...entry, files });
    }
    return present;
  }

  // Only the files it recorded; their folders go only when nothing else is left in them.
  private async remove(entry: DownloadedTaskData, say: AssetLog): Promise<boolean> {
    const folder = join(this.cacheDir, entry.folder);
    try {
      for (const file of Object.keys(entry.files)) await this.files.removeFile(join(folder, file));
      await this.files.removeIfEmpty(folder);
      await this.files.removeIfEmpty(join(folder, '..'));
    } catch (error) {
      say(`task data budget: could not remove the data of ${entry.task} in ${folder}: ${(error as Error).message}`);
      return false;
    }
    await this.ledger.forget(entry.folder);
    say(`task data budget: removed the data of ${entry.task} (${formatBytes(downloadedBytes(entry))}), downloaded here and used least recently`);
    return true;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
