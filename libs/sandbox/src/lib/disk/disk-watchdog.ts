import { formatBytes } from '@arvo-rca/common';
import { formatCount } from './file-count';
import type { InodeFloor } from './inode-floor';

/** What the watchdog tells when a task's writes pass a limit. */
type DiskLimitBreach = (detail: string) => void;

/** What a task has written: its bytes, and its files when they can be counted here. */
export interface DiskUse {
  bytes: number;
  files?: number;
}

/** One look at a task's writes; it may throw (the engine busy, the task gone): the round is skipped. */
export type DiskMeter = () => Promise<DiskUse>;

/** What the watchdog holds a task to. */
interface DiskBounds {
  bytes: number;
  files: number;
  /** The longest wait between two looks. */
  intervalMs: number;
  /** What wrote, in its detail: `the task's container`, `the task's workspace`. */
  subject: string;
  /** The host's free inodes where the task writes; the task ends once they fall below it. */
  floor?: InodeFloor;
}

/** The shortest wait between two looks: each one walks the task's writes. */
export const DISK_CHECK_FLOOR_MS = 200;
/** A look may take at most this share of the watchdog's time: a large layer (a real tree) is looked at less often. */
const LOOK_DUTY = 0.05;
/** The beat the watchdogs of a process share for their looks not due soon. */
export const LOOK_BEAT_MS = 250;

/**
 * The wait of `ms`, longer by less than a beat so that it ends on the process's shared beat, when it is
 * at least four beats long; a shorter one (a task near its limit) as it is. The looks of many tasks then
 * come together, and go to the folder counter's thread as one message.
 */
export function onLookBeat(ms: number, now = Date.now()): number {
  if (ms < 4 * LOOK_BEAT_MS) return ms;
  return Math.ceil((now + ms) / LOOK_BEAT_MS) * LOOK_BEAT_MS - now;
}

/**
 * The wait before the next look: the longest interval while the writes are far from the limit, shorter as
 * they come closer (with the square of what is left: a quarter of it at half the limit), and never longer
 * than half the time the last rate of writing takes to reach it; not under DISK_CHECK_FLOOR_MS, nor under
 * what keeps the walks of the writes to LOOK_DUTY of the time. Bytes and files alike.
 */
export function nextDiskCheckMs(limit: number, written: number, perMs: number, intervalMs: number, lookMs = 0): number {
  const left = Math.max(0, limit - written) / limit;
  const byShare = intervalMs * left * left;
  const byRate = perMs > 0 ? (left * limit) / perMs / 2 : Infinity;
  return Math.min(intervalMs, Math.max(DISK_CHECK_FLOOR_MS, lookMs / LOOK_DUTY, Math.min(byShare, byRate)));
}

interface Look {
  use: DiskUse;
  at: number;
  lookMs: number;
}

/**
 * Watches what a task has written, its bytes and its files (each file takes one of the host's inodes,
 * which an empty one does not show in bytes), and tells once when either passes its limit, or when the
 * host's free inodes fall below their floor. Where nothing else limits the writes, this is the only limit,
 * so it looks more often the closer they come to it (nextDiskCheckMs). Checks run one at a time and never
 * throw: a meter that cannot answer just skips a round.
 */
export class DiskWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private breached = false;
  private stopped = false;
  private last: Look | undefined;
  /** Bytes and files per ms between the last two looks. */
  private rate = { bytes: 0, files: 0 };

  constructor(
    private readonly meter: DiskMeter,
    private readonly bounds: DiskBounds,
    private readonly onBreach: DiskLimitBreach,
  ) {}

  start(): void {
    if (this.timer === undefined) this.schedule(this.bounds.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped || this.breached) return;
    this.timer = setTimeout(() => void this.check().then(() => this.schedule(this.nextMs())), onLookBeat(ms));
    this.timer.unref();
  }

  private nextMs(): number {
    const { last, bounds, rate } = this;
    if (!last) return bounds.intervalMs;
    const byBytes = nextDiskCheckMs(bounds.bytes, last.use.bytes, rate.bytes, bounds.intervalMs, last.lookMs);
    const byFiles = last.use.files === undefined ? Infinity : nextDiskCheckMs(bounds.files, last.use.files, rate.files, bounds.intervalMs, last.lookMs);
    return Math.min(byBytes, byFiles);
  }

  /** One look at the task's writes; exposed for the first check and for tests. */
  async check(): Promise<void> {
    if (this.checking || this.breached) return;
    this.checking = true;
    try {
      const began = performance.now();
      const [use, low] = await Promise.all([this.meter(), this.bounds.floor?.breach()]);
      const at = performance.now();
      this.learnRate(use, at);
      this.last = { use, at, lookMs: at - began };
      const detail = this.breach(use) ?? low;
      if (detail !== undefined) {
        this.breached = true;
        this.stop();
        this.onBreach(detail);
      }
    } catch {
      // Gone or busy: the next round looks again, and a removed task is stopped by its sandbox.
    } finally {
      this.checking = false;
    }
  }

  private learnRate(use: DiskUse, at: number): void {
    const last = this.last;
    if (!last || at <= last.at) return;
    this.rate.bytes = Math.max(0, (use.bytes - last.use.bytes) / (at - last.at));
    if (use.files !== undefined && last.use.files !== undefined) this.rate.files = Math.max(0, (use.files - last.use.files) / (at - last.at));
  }

  private breach(use: DiskUse): string | undefined {
    const { bytes, files, subject } = this.bounds;
    if (use.bytes > bytes) return `${subject} wrote ${formatBytes(use.bytes)}, past its disk limit of ${formatBytes(bytes)}`;
    if (use.files !== undefined && use.files > files) {
      return `${subject} made ${formatCount(use.files)} files, past its limit of ${formatCount(files)} (CONTAINER_FILES)`;
    }
    return undefined;
  }
}
