import { statfs } from 'node:fs/promises';
import { formatBytes } from '@arvo-rca/common';
import { DiskShares, formatCount, InodeFloor, type DiskTotal, type SandboxOptions } from '@arvo-rca/sandbox';
import type { DockerEngine, EngineStorage } from '../engine/docker-engine';

type Log = (line: string) => void;

/**
 * The running tasks' disk in total on one engine (see DiskShares): TASKS_DISK_TOTAL when given (0: no
 * bound, then none is made), else the free disk of the engine's data root, read with statfs where the
 * engine is reached by a socket of this host. A remote engine (tcp, ssh) tells no free disk through its
 * API (its `/system/df` counts only what it holds), so there nothing bounds the total unless it is given.
 */
export function engineDiskShares(engine: DockerEngine, options: SandboxOptions, log: Log): DiskShares | undefined {
  if (options.diskTotalBytes === 0) return undefined;
  let told = false;
  const source = async (): Promise<DiskTotal | undefined> => {
    const storage = await engine.storage().catch(() => undefined);
    if (storage && !told) {
      told = true;
      log(describeDiskLimit(storage, options));
    }
    if (options.diskTotalBytes !== undefined) return { bytes: options.diskTotalBytes, source: 'in total (TASKS_DISK_TOTAL)' };
    return storage?.local ? freeOn(storage.dataRoot) : undefined;
  };
  return new DiskShares(options.diskBytes, source, log);
}

/**
 * The host's free inodes under the engine's data root (HOST_INODES_FLOOR), read with statfs where the engine
 * is local; a remote engine's are not knowable from here, and then nothing is refused or ended for them.
 */
export function engineInodeFloor(engine: DockerEngine, options: SandboxOptions): InodeFloor {
  let root: Promise<string | undefined> | undefined;
  const place = (): Promise<string | undefined> => {
    // Asked again after a failure: the engine may not have answered yet.
    root ??= engine.storage().then((storage) => (storage.local ? storage.dataRoot : undefined));
    return root.catch(() => {
      root = undefined;
      return undefined;
    });
  };
  return new InodeFloor(options.inodesFloor, place);
}

async function freeOn(dataRoot: string): Promise<DiskTotal | undefined> {
  // A local socket to an engine in a virtual machine names a folder this host may not have: then unknown.
  const found = await statfs(dataRoot).catch(() => undefined);
  return found && { bytes: found.bavail * found.bsize, source: `free on ${dataRoot} (the engine's data root)` };
}

/** Which limit holds a task's writes on this engine: the storage driver's quota, or the watchdog alone. */
export function describeDiskLimit(storage: EngineStorage, options: SandboxOptions): string {
  const on = `${storage.driver}${storage.backingFilesystem ? ` on ${storage.backingFilesystem}` : ''}`;
  const limit = formatBytes(options.diskBytes);
  const files = storage.local && storage.driver.startsWith('overlay') ? "in each layer's folder from this host" : "through the engine's /changes";
  const watchdog = `the watchdog looks at each task's writes every ${options.diskCheckIntervalS} s at most, more often the closer they are to ${limit} or ${formatCount(options.diskFiles)} files (counted ${files})`;
  if (quotaLikely(storage))
    return `disk limit: ${on} can hold each task's container to ${limit} (--storage-opt size; xfs needs pquota, a refusal falls back), and ${watchdog}`;
  return `disk limit: ${on} has no storage quota; ${watchdog} and ends the task past it`;
}

// overlay2 limits a container only on xfs mounted with project quotas; btrfs and zfs limit their subvolumes.
function quotaLikely({ driver, backingFilesystem }: EngineStorage): boolean {
  return (driver === 'overlay2' && backingFilesystem === 'xfs') || driver === 'btrfs' || driver === 'zfs';
}
