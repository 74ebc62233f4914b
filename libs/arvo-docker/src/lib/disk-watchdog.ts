import { formatBytes } from '@arvo-rca/common';
import type { ContainerHandle } from './container-handle';

/** What the watchdog tells when a container's writes pass the limit. */
export type DiskLimitBreach = (detail: string) => void;

/**
 * Watches how much a task's container has written (the engine's `SizeRw`: the workspace and every
 * other write to its filesystem) and tells once when it passes the limit. Storage drivers that can
 * limit a container's disk (overlay2 on xfs with project quotas, btrfs, zfs) are given the limit at
 * create as well; elsewhere this is the only limit. Checks run one at a time and never throw: an
 * engine that cannot answer just skips a round.
 */
export class DiskWatchdog {
  private timer: NodeJS.Timeout | undefined;
  private checking = false;
  private breached = false;

  constructor(
    private readonly container: ContainerHandle,
    private readonly limitBytes: number,
    private readonly intervalMs: number,
    private readonly onBreach: DiskLimitBreach,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** One look at the container's writes; exposed for the first check and for tests. */
  async check(): Promise<void> {
    if (this.checking || this.breached) return;
    this.checking = true;
    try {
      const written = (await this.container.writtenBytes()) ?? 0;
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
