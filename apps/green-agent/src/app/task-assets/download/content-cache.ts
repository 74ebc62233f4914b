import { dirname, join } from 'node:path';
import type { AssetLog } from './download-progress';
import { FileDownloader } from './file-downloader';
import { TaskAssetsError } from '../task-assets.errors';
import type { CachedTaskFile, TaskDataBudget } from './task-data-budget';
import { TaskFileSystem } from '../task-file-system';
import type { TaskRef } from '@arvo-rca/common';
import type { TaskFileName, TaskSource } from '../task-source';

/**
 * Task files on local disk, shared by all tasks: `<cacheDir>/<source>-<origin hash>/<id>/<file>`. Remote files
 * are downloaded once (concurrent requests for one file share that download); local mirrors are read in place.
 * With a budget, each download makes room for itself first and is recorded as downloaded here.
 */
export class ContentCache {
  /** Downloads under way, by cache path; owned by this instance, so nothing is global. */
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(
    private readonly cacheDir: string,
    private readonly files: TaskFileSystem,
    private readonly downloader: FileDownloader,
    private readonly budget?: TaskDataBudget,
  ) {}

  /** The local path of the file; TASK_NOT_FOUND when the source does not have it. */
  fetch(source: TaskSource, ref: TaskRef, file: TaskFileName, log: AssetLog): Promise<string> {
    const location = source.locate(ref, file);
    if (location.kind === 'local') return this.local(location.path, file);
    const folder = source.cacheFolder(ref);
    const path = join(this.cacheDir, folder, file);
    const pending = this.inFlight.get(path);
    if (pending) {
      log(`${file}: joining a download already under way`);
      return pending;
    }
    // Registered before the first await, so that a second caller in the same tick finds it.
    const loading = this.load(location.url, path, { folder, task: ref.taskId, file }, log).finally(() => this.inFlight.delete(path));
    this.inFlight.set(path, loading);
    return loading;
  }

  /** A task used its files: recency for the budget, when they were downloaded here. */
  async used(source: TaskSource, ref: TaskRef): Promise<void> {
    if (source.isRemote) await this.budget?.used(source.cacheFolder(ref));
  }

  /** Forgets a cached file (a download that turned out broken), so the next task downloads it again. */
  async evict(source: TaskSource, ref: TaskRef, file: TaskFileName): Promise<void> {
    if (source.isRemote) await this.files.remove(join(this.cacheDir, source.cacheFolder(ref), file));
  }

  private async load(url: URL, path: string, target: CachedTaskFile, log: AssetLog): Promise<string> {
    if (await this.files.isFile(path)) return path;
    // Private: the cache holds the ground truth, which the solver must never see.
    await this.files.makeDir(this.cacheDir, 0o700);
    await this.files.makeDir(dirname(path));
    await this.downloader.download(url, path, target.file, log, this.budget?.room(target, log));
    return path;
  }

  private async local(path: string, file: TaskFileName): Promise<string> {
    if (await this.files.isFile(path)) return path;
    throw new TaskAssetsError('TASK_NOT_FOUND', `task not found: no ${file} at ${path}`);
  }
}
