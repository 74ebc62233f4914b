import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { markTaskFolder } from '@arvo-rca/sandbox';
import { errorReportName, SHARED_DIR, SOURCE_TREE } from '@arvo-rca/common';
import { ArchiveExtractor, type ExtractOptions } from './archive/archive-extractor';
import { ContentCache } from './download/content-cache';
import type { AssetLog } from './download/download-progress';
import { DEFAULT_DOWNLOAD_POLICY, FileDownloader } from './download/file-downloader';
import { filesNamedAs, filesOfFix } from './files-by-name';
import type { HostTree } from './host-tree';
import { HttpFetcher } from './download/http-fetcher';
import { NeededTaskData } from './download/needed-task-data';
import { TaskAssetsError } from './task-assets.errors';
import type { TaskAssetsOptions } from './task-assets.options';
import { TaskDataBudget } from './download/task-data-budget';
import { TaskDataLedger } from './download/task-data-ledger';
import { TaskFileSystem } from './task-file-system';
import type { TaskRef } from '@arvo-rca/common';
import { TaskSourceRegistry, type TaskSource } from './task-source';

/** The I/O boundaries the task assets use. */
export interface TaskAssetsIo {
  http: HttpFetcher;
  files: TaskFileSystem;
  archives: ArchiveExtractor;
}

/** A task ready for its sandbox: a fresh workspace of its own, and where its ground truth is. */
export interface PreparedTask {
  ref: TaskRef;
  /** `<TMP_DIR>/<source>_<id>-<uuid>`: everything of this task on disk; `dispose()` removes it. */
  taskRoot: string;
  /** `<taskRoot>/workspace`, to mount at `/workspace`: `src-vul/`, `<id>_error.txt`, an empty `shared/`. */
  workspaceDir: string;
  errorReport: string;
  /** `<workspaceDir>/<id>_error.txt`, or `<workspaceDir>/error.txt` for a masked task. */
  errorReportPath: string;
  /** `patch.diff` in the private cache (or a local mirror); never inside the workspace. */
  groundTruthPath: string;
  /** What `groundTruthPath` holds: the fix, as a diff. */
  fix: string;
  /** The Docker image of the task, from its source's template. */
  image: string;
  /** `src-vul/` on the host, as far as the judge reads it. */
  hostTree: HostTree;
  /** Deletes the task root; safe to call more than once. */
  dispose(): Promise<void>;
}

/**
 * A task whose files are fetched and whose workspace is being laid out: where it will be and which image
 * runs it are known, so that its sandbox can start meanwhile.
 */
export interface PreparingTask {
  ref: TaskRef;
  workspaceDir: string;
  image: string;
  /** The workspace complete; when it rejects, the task's folder is gone already. */
  prepared: Promise<PreparedTask>;
}

const ignore: AssetLog = () => undefined;

/** Turns a task id into a prepared task: files through the content cache, then a fresh workspace. */
export class TaskAssetsService {
  private readonly registry: TaskSourceRegistry;
  private readonly cache: ContentCache;
  private readonly files: TaskFileSystem;
  private readonly archives: ArchiveExtractor;
  /** Aborted at shutdown: extractions under way stop, and none starts any more. */
  private readonly shutdown = new AbortController();

  /** `needed`: the tasks whose data the budget keeps; this service holds each task's own while it is prepared and used. */
  constructor(
    private readonly options: TaskAssetsOptions,
    io: TaskAssetsIo,
    private readonly needed = new NeededTaskData(),
  ) {
    this.registry = new TaskSourceRegistry(options.sources, options.defaultSource);
    this.files = io.files;
    this.archives = io.archives;
    const downloader = new FileDownloader(io.http, io.files, { ...DEFAULT_DOWNLOAD_POLICY, ...options.download });
    const { cacheDir, taskDataBudgetBytes: budgetBytes = 0 } = options;
    const budget = budgetBytes > 0 ? new TaskDataBudget(cacheDir, new TaskDataLedger(cacheDir), needed, budgetBytes, io.files) : undefined;
    this.cache = new ContentCache(cacheDir, io.files, downloader, budget);
  }

  /** Validates a task id (`arvo:14368`, `sample:1`, or a bare ARVO id); throws INVALID_TASK_ID or UNKNOWN_TASK_SOURCE. */
  parse(text: string): TaskRef {
    return this.registry.parse(text);
  }

  /** The Docker image of the task, from its source's template. */
  image(ref: TaskRef): string {
    return this.registry.source(ref).image(ref);
  }

  /**
   * Fetches the task's files through the cache and lays out a fresh workspace. Throws a TaskAssetsError:
   * INVALID_TASK_ID / UNKNOWN_TASK_SOURCE (before any I/O), TASK_NOT_FOUND, DOWNLOAD_FAILED, BROKEN_ARCHIVE,
   * ARCHIVE_TOO_LARGE, EXTRACTION_FAILED, or EXTRACTION_ABORTED after `abortExtractions()`.
   */
  async prepare(ref: TaskRef, log: AssetLog = ignore, layout: WorkspaceLayout = {}): Promise<PreparedTask> {
    return (await this.begin(ref, log, layout)).prepared;
  }

  /**
   * Fetches the task's files and starts laying out its workspace; settles once the files are here, with
   * the workspace still being written (`prepared` settles when it is complete). Throws as prepare() does
   * for what fails before.
   */
  async begin(ref: TaskRef, log: AssetLog = ignore, layout: WorkspaceLayout = {}): Promise<PreparingTask> {
    const source = this.registry.source(ref);
    // Its cached files stay until its workspace goes: the judge reads the archive and the fix at its end.
    const hold = this.needed.hold([ref.taskId]);
    try {
      log(`preparing ${ref.taskId} from ${source.describe()}`);
      const files = await this.fetchFiles(source, ref, log);
      return await this.layOutWorkspace(source, ref, files, layout, () => hold.releaseAll(), log);
    } catch (error) {
      hold.releaseAll();
      // Its reader must not take what never came for a tree.
      layout.tree?.destroy();
      throw forTask(error, ref);
    }
  }

  /** Fetches the task's files into the cache ahead of its run, and lays nothing out. Throws as begin() does for its files. */
  async fetch(ref: TaskRef, log: AssetLog = ignore): Promise<void> {
    try {
      await this.fetchFiles(this.registry.source(ref), ref, log);
    } catch (error) {
      throw forTask(error, ref);
    }
  }

  /**
   * For shutdown: every extraction under way stops at once (its task's folder is then removed as on any
   * failure) and later ones are refused, so that no task waits on an archive while the agent goes down.
   */
  abortExtractions(): void {
    this.shutdown.abort();
  }

  private async fetchFiles(source: TaskSource, ref: TaskRef, log: AssetLog): Promise<TaskFiles> {
    // The small crash report first: a task that does not exist is found out without touching the archive.
    const errorReport = await this.cache.fetch(source, ref, 'error.txt', log);
    const [archive, groundTruth] = await Promise.allSettled([
      this.cache.fetch(source, ref, 'repo-vul.tar.gz', log),
      this.cache.fetch(source, ref, 'patch.diff', log),
    ]);
    if (archive.status === 'rejected') throw archive.reason;
    if (groundTruth.status === 'rejected') throw groundTruth.reason;
    await this.cache.used(source, ref);
    return { errorReport, archive: archive.value, groundTruth: groundTruth.value };
  }

  private async layOutWorkspace(
    source: TaskSource,
    ref: TaskRef,
    files: TaskFiles,
    layout: WorkspaceLayout,
    release: () => void,
    log: AssetLog,
  ): Promise<PreparingTask> {
    // A masked task is hidden in the folder's name too: a local sandbox shows the solver its host path.
    const folder = layout.masked ? 'task_masked' : `${ref.source}_${ref.id}`;
    const taskRoot = join(this.options.tmpDir, `${folder}-${randomUUID()}`);
    const workspaceDir = join(taskRoot, 'workspace');
    const errorReportPath = join(workspaceDir, errorReportName(layout.masked ? null : ref.id));
    let removal: Promise<void> | undefined;
    const dispose = (): Promise<void> => {
      release();
      return (removal ??= this.files.remove(taskRoot));
    };
    const image = source.image(ref);
    // A tree that goes into a container: the host keeps only what the judge reads.
    const extent = layout.tree ? 'judged' : 'whole';
    const hostTree: HostTree = {
      dir: join(workspaceDir, SOURCE_TREE),
      extent,
      addFiles: async (paths) => {
        if (extent === 'whole' || paths.length === 0) return;
        await this.archives.extract(files.archive, workspaceDir, SOURCE_TREE, {
          limits: this.options.archiveLimits,
          signal: this.shutdown.signal,
          keep: filesNamedAs(paths),
          adding: true,
        });
      },
    };
    const written = (async (): Promise<PreparedTask> => {
      await this.files.makeDir(this.options.tmpDir);
      // Private: no other user of the host reaches into a task's files (what a task container leaves there included).
      await this.files.makeDir(taskRoot, 0o700);
      await this.files.makeDir(join(workspaceDir, SHARED_DIR));
      if (this.options.owner) await markTaskFolder(taskRoot, this.options.owner);
      await this.files.copyFile(files.errorReport, errorReportPath);
      const fix = await this.files.readText(files.groundTruth);
      const keep = extent === 'judged' ? filesNamedAs(filesOfFix(fix)) : undefined;
      await this.extract(source, ref, files.archive, workspaceDir, { copy: layout.tree, keep });
      const errorReport = await this.files.readText(errorReportPath);
      log(
        `workspace of ${ref.taskId} ready at ${workspaceDir}${keep ? ' (on this host, only the files the judge reads: the container has the whole tree)' : ''}`,
      );
      return { ref, taskRoot, workspaceDir, errorReport, errorReportPath, groundTruthPath: files.groundTruth, fix, image, hostTree, dispose };
    })();
    const prepared = written.catch(async (error: unknown) => {
      layout.tree?.destroy();
      await dispose();
      throw forTask(error, ref);
    });
    // Its caller awaits it after starting the sandbox: a failure meanwhile is not an unhandled one.
    prepared.catch(() => undefined);
    return { ref, workspaceDir, image, prepared };
  }

  private async extract(source: TaskSource, ref: TaskRef, archive: string, workspaceDir: string, share: Pick<ExtractOptions, 'copy' | 'keep'>): Promise<void> {
    try {
      await this.archives.extract(archive, workspaceDir, SOURCE_TREE, { limits: this.options.archiveLimits, signal: this.shutdown.signal, ...share });
    } catch (error) {
      // A broken download must not stay in the cache and break every later task on this id.
      if (error instanceof TaskAssetsError && error.code === 'BROKEN_ARCHIVE') await this.cache.evict(source, ref, 'repo-vul.tar.gz');
      throw error;
    }
  }
}

/** How the workspace names its files: `<id>_error.txt` as the original does, or, for a task under a masked id, names that tell nothing of the task. */
export interface WorkspaceLayout {
  masked?: boolean;
  /**
   * Gets `src-vul/` as the checked tar stream the host extracts it from, as it is extracted, and its end
   * once the tree is complete (a container sandbox copies it in on the way); it is closed without an end
   * when the task's preparation fails. The host then writes only what the judge reads of the tree.
   */
  tree?: Writable;
}

function forTask(error: unknown, ref: TaskRef): unknown {
  return error instanceof TaskAssetsError ? error.forTask(ref.taskId) : error;
}

interface TaskFiles {
  errorReport: string;
  archive: string;
  groundTruth: string;
}
