import { statfs } from 'node:fs/promises';
import { formatCount } from './file-count';
import { SandboxError } from '../sandbox-error';
import type { InodesFloor } from '../sandbox-options';

/** The host's inodes on one filesystem, as statfs tells them. */
interface InodeCount {
  free: number;
  total: number;
}

/** Where the tasks write on this host (a folder of the filesystem), or undefined where that is not knowable (a remote engine). */
type InodePlace = () => Promise<string | undefined>;

/** The filesystem's inodes at `path`; undefined where it has none to tell (btrfs and some others say 0). */
type InodeSource = (path: string) => Promise<InodeCount | undefined>;

const statfsInodes: InodeSource = async (path) => {
  const found = await statfs(path).catch(() => undefined);
  return found && found.files > 0 ? { free: found.ffree, total: found.files } : undefined;
};

/** Looks this close together share one statfs: no look waits longer than its own pace allows (DISK_CHECK_FLOOR_MS). */
export const INODE_READING_SHARED_MS = 200;

/**
 * The free inodes the host keeps where the tasks write (HOST_INODES_FLOOR): a start below it is refused,
 * and a running task's watchdog ends it once they fall below. Millions of empty files take a few dozen
 * MiB, which no byte limit notices, and a filesystem out of inodes stops the engine, the record and the logs. All the
 * running tasks' watchdogs ask it, so a reading serves every look within INODE_READING_SHARED_MS of it:
 * 128 tasks looking every 2 s were 64 statfs a second on the green agent's loop, of one filesystem.
 */
export class InodeFloor {
  private reading: { at: number; path: string; inodes: Promise<InodeCount | undefined> } | undefined;

  constructor(
    private readonly floor: InodesFloor,
    private readonly place: InodePlace,
    private readonly source: InodeSource = statfsInodes,
  ) {}

  /** Whether it bounds anything: a floor of 0 does not. */
  get bounds(): boolean {
    return 'percent' in this.floor ? this.floor.percent > 0 : this.floor.inodes > 0;
  }

  /** Why the host is below the floor, or undefined when it is not (or cannot tell). */
  async breach(): Promise<string | undefined> {
    if (!this.bounds) return undefined;
    const path = await this.place();
    const inodes = path === undefined ? undefined : await this.read(path);
    if (path === undefined || inodes === undefined) return undefined;
    const floor = 'percent' in this.floor ? Math.ceil((inodes.total * this.floor.percent) / 100) : this.floor.inodes;
    if (inodes.free >= floor) return undefined;
    return `the host's free inodes on ${path} are ${formatCount(inodes.free)} of ${formatCount(inodes.total)}, below the floor of ${formatCount(floor)} (HOST_INODES_FLOOR)`;
  }

  private read(path: string): Promise<InodeCount | undefined> {
    const now = performance.now();
    if (!this.reading || this.reading.path !== path || now - this.reading.at >= INODE_READING_SHARED_MS)
      this.reading = { at: now, path, inodes: this.source(path) };
    return this.reading.inodes;
  }

  /** Fails a start with HOST_INODES_LOW while the host is below the floor. */
  async refuseBelow(): Promise<void> {
    const why = await this.breach();
    if (why !== undefined) throw new SandboxError('HOST_INODES_LOW', `a task cannot start: ${why}`);
  }
}
