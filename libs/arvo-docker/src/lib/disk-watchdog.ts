import { formatBytes } from '@arvo-rca/common';
import type { ContainerHandle } from './container-handle';

/** What the watchdog tells when a container's writes pass the limit. */
export type DiskLimitBreach = (detail: string) => void;

/** The shortest wait between two looks: each one has the engine walk the container's writable layer. */
export const DISK_CHECK_FLOOR_MS = 200;
/** A look may take at most this share of the watchdog's time: a large layer (a real tree) is looked at less often. */
const LOOK_DUTY = 0.05;

/**
 * The wait before the next look: the longest interval while the writes are far from the limit, shorter as
 * they come closer (with the square of what is left: a quarter of it at half the limit), and never longer
 * than half the time the last rate of writing takes to reach it; not under DISK_CHECK_FLOOR_MS, nor under
 * what keeps the engine's walks of the layer to LOOK_DUTY of the time.
 */
export function nextDiskCheckMs(limitBytes: number, writtenBytes: number, bytesPerMs: number, intervalMs: number, lookMs = 0): number {
  const left = Math.max(0, limitBytes - writtenBytes) / limitBytes;
  const byShare = intervalMs * left * left;
  const byRate = bytesPerMs > 0 ? (left * limitBytes) / bytesPerMs / 2 : Infinity;
  return Math.min(intervalMs, Math.max(DISK_CHECK_FLOOR_MS, lookMs / LOOK_DUTY, Math.min(byShare, byRate)));
}

/**
 * Watches how much a task's container has written (the engine's `SizeRw`: the workspace and every
 * other write to its filesystem) and tells once when it passes the limit. Storage drivers that can
 * limit a container's disk (overlay2 on xfs with project quotas, btrfs, zfs) are given the limit at
 * create as well; elsewhere this is the only limit, so it looks more often the closer the writes come
 * to it (nextDiskCheckMs). Checks run one at a time and never throw: an engine that cannot answer just
 * skips a round.
 */
export class DiskWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private breached = false;
  private stopped = false;
  private last: { written: number; at: number; lookMs: number } | undefined;
  /** Bytes per ms between the last two looks. */
  private rate = 0;

  constructor(
    private readonly container: ContainerHandle,
    private readonly limitBytes: number,
    private readonly intervalMs: number,
    private readonly onBreach: DiskLimitBreach,
  ) {}

  start(): void {
    if (this.timer === undefined) this.schedule(this.intervalMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.stopped || this.breached) return;
    this.timer = setTimeout(() => void this.check().then(() => this.schedule(this.nextMs())), ms);
    this.timer.unref();
  }

  private nextMs(): number {
    return this.last ? nextDiskCheckMs(this.limitBytes, this.last.written, this.rate, this.intervalMs, this.last.lookMs) : this.intervalMs;
  }

  /** One look at the container's writes; exposed for the first check and for tests. */
  async check(): Promise<void> {
    if (this.checking || this.breached) return;
    this.checking = true;
    try {
      const began = performance.now();
      const written = (await this.container.writtenBytes()) ?? 0;
      const at = performance.now();
      if (this.last && at > this.last.at) this.rate = Math.max(0, (written - this.last.written) / (at - this.last.at));
      this.last = { written, at, lookMs: at - began };
      if (written > this.limitBytes) {
        this.breached = true;
        this.stop();
        this.onBreach(`the task's container wrote ${formatBytes(written)}, past its disk limit of ${formatBytes(this.limitBytes)}`);
      }
    } catch {
      // Gone or busy: the next round looks again, and a removed container is stopped by its sandbox.
    } finally {
      this.checking = false;
    }
  }
}
