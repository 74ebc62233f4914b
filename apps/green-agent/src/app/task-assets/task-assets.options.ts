import { resolve } from 'node:path';
import { currentOwner, formatOwnerId, parseMemory } from '@arvo-rca/sandbox';
import { DEFAULT_TASK_SOURCE, ProcessTable, TASK_SOURCE_IMAGES, TASK_SOURCE_NAMES, type TaskSourceName } from '@arvo-rca/common';
import type { GreenConfig } from '../green-config';
import type { ArchiveLimits } from './archive/archive-limits';
import type { DownloadPolicy } from './download/file-downloader';
import type { TaskSourceConfig } from './task-source';

export interface TaskAssetsOptions {
  /** Task workspaces are made under it, one folder per task. */
  tmpDir: string;
  /** The content cache shared by tasks; private to the green agent (it holds the ground truth). */
  cacheDir: string;
  sources: TaskSourceConfig[];
  /** The source of a bare id such as `14368`. */
  defaultSource?: string;
  download?: Partial<DownloadPolicy>;
  /** What a task archive may unpack to; the defaults where left out. */
  archiveLimits?: Partial<ArchiveLimits>;
  /**
   * This process's owner id, written into each task folder as it is made (`TASK_OWNER_FILE`), so that a
   * restarted agent reaps the folder of one that died mid-task, container or not.
   */
  owner?: string;
  /** What the task data this agent downloaded may take of `cacheDir` (TASK_DATA_DISK_BUDGET); 0 or none, no budget. */
  taskDataBudgetBytes?: number;
}

export const TASK_ASSETS_OPTIONS = 'TASK_ASSETS_OPTIONS';

/** The sources every green agent knows (their names and images: TASK_SOURCE_IMAGES), with where this one finds their files. */
export function taskSources(env: Pick<GreenConfig, 'ARVO_DATA_URL' | 'SAMPLES_DIR'> & Partial<Pick<GreenConfig, 'ARVO_IMAGE_TEMPLATE'>>): TaskSourceConfig[] {
  const bases: Record<TaskSourceName, string> = { arvo: env.ARVO_DATA_URL, sample: env.SAMPLES_DIR };
  const images: Record<TaskSourceName, string> = { ...TASK_SOURCE_IMAGES, ...(env.ARVO_IMAGE_TEMPLATE ? { arvo: env.ARVO_IMAGE_TEMPLATE } : {}) };
  return TASK_SOURCE_NAMES.map((name) => ({ name, base: bases[name], imageTemplate: images[name] }));
}

/** Relative directories are taken from the working directory, as the other path variables are. */
export function taskAssetsOptionsFrom(
  env: Pick<
    GreenConfig,
    | 'TMP_DIR'
    | 'CACHE_DIR'
    | 'ARVO_DATA_URL'
    | 'ARVO_IMAGE_TEMPLATE'
    | 'SAMPLES_DIR'
    | 'ARCHIVE_MAX_BYTES'
    | 'ARCHIVE_MAX_ENTRIES'
    | 'ARCHIVE_MAX_FILE_BYTES'
    | 'ARCHIVE_MAX_COMPRESSION_RATIO'
    | 'TASK_DATA_DISK_BUDGET'
  >,
): TaskAssetsOptions {
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  const archiveLimits: ArchiveLimits = {
    maxBytes: env.ARCHIVE_MAX_BYTES,
    maxEntries: env.ARCHIVE_MAX_ENTRIES,
    maxFileBytes: env.ARCHIVE_MAX_FILE_BYTES,
    maxCompressionRatio: env.ARCHIVE_MAX_COMPRESSION_RATIO,
  };
  return {
    tmpDir: resolve(env.TMP_DIR),
    cacheDir: resolve(env.CACHE_DIR),
    sources: taskSources(env),
    defaultSource: DEFAULT_TASK_SOURCE,
    owner,
    archiveLimits,
    taskDataBudgetBytes: parseMemory(env.TASK_DATA_DISK_BUDGET),
  };
}
