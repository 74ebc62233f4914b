import { statfs } from 'node:fs/promises';
import { formatBytes } from '@arvo-rca/common';
import { SandboxError } from '../sandbox-error';
import type { SandboxOptions } from '../sandbox-options';

/** The disk the running tasks may write in total, and where that figure comes from (for the log and errors). */
export interface DiskTotal {
  bytes: number;
  /** Such as `free on /var/lib/docker (the engine's data root)` or `TASKS_DISK_TOTAL`. */
  source: string;
}

/** Where the total comes from: undefined when it cannot be known (a remote engine), then nothing bounds it. */
type DiskTotalSource = () => Promise<DiskTotal | undefined>;

/** One running task's share of the total; released once its sandbox is gone. */
export interface DiskShare {
  release(): void;
}

interface Waiter {
  grant: () => void;
}

/** A sandbox asking for its share (see DiskShares.shareFor). */
interface ShareHolder {
  name: string;
  /** Aborts once the sandbox is stopped. */
  stopping: AbortSignal;
  stopped(): boolean;
  onProgress?: (line: string) => void;
}

/**
 * The running tasks' writable layers under one total: as many tasks at once as the total holds shares of
 * `perTaskBytes` (their disk limit). The total is measured when a task asks for a share and none is held
 * (what the tasks wrote is then gone), so it follows the disk between bursts. A task past the count waits
 * for a share (the run goes on with fewer tasks at once; the log says why, once); a total that holds not
 * even one share fails the task with DISK_SHARE_UNAVAILABLE, naming the numbers.
 */
export class DiskShares {
  private held = 0;
  private slots: number | undefined;
  private total: DiskTotal | undefined;
  private readonly waiting: Waiter[] = [];
  private toldWaiting = false;
  private toldUnknown = false;

  constructor(
    private readonly perTaskBytes: number,
    private readonly source: DiskTotalSource,
    private readonly log: (line: string) => void,
  ) {}

  /**
   * A share, at once or once one is released (`onWait` is told why it waits); a signal that aborts meanwhile
   * fails the wait and takes none.
   */
  async acquire(signal?: AbortSignal, onWait?: (why: string) => void): Promise<DiskShare> {
    if (this.held === 0 && this.waiting.length === 0) await this.measure();
    const slots = this.slots ?? Infinity;
    if (slots < 1) throw this.unavailable();
    signal?.throwIfAborted();
    if (this.held < slots) return this.grant();
    this.tellWaiting(slots);
    onWait?.(`waiting for a disk share: ${this.held} task(s) of ${formatBytes(this.perTaskBytes)} fill ${this.describeTotal()}`);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { grant: () => (signal?.removeEventListener('abort', onAbort), resolve()) };
      const onAbort = (): void => {
        this.waiting.splice(this.waiting.indexOf(waiter), 1);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
    return this.shareObject();
  }

  /**
   * The share of the sandbox `holder`, once one is free (its progress says why it waits). A sandbox stopped
   * while it waits fails with SANDBOX_NOT_STARTED; a share that comes as it is stopped goes back at once
   * (undefined: its removal already ran).
   */
  async shareFor(holder: ShareHolder): Promise<DiskShare | undefined> {
    const onWait = (why: string): void => holder.onProgress?.(`${holder.name}: ${why}`);
    const share = await this.acquire(holder.stopping, onWait).catch((error: unknown) => {
      if (!holder.stopped()) throw error;
      throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${holder.name} was stopped while it waited for a disk share`, { cause: error });
    });
    if (!holder.stopped()) return share;
    share.release();
    return undefined;
  }

  /**
   * Said at an assessment's start: what `concurrency` tasks at once would take against the total, when it
   * holds fewer (they then wait for shares); nothing when they fit or nothing bounds them.
   */
  async outlook(concurrency: number): Promise<string | undefined> {
    if (this.held === 0 && this.waiting.length === 0) await this.measure();
    const slots = this.slots ?? Infinity;
    if (concurrency <= slots) return undefined;
    const asked = formatBytes(concurrency * this.perTaskBytes);
    return `disk shares: ${concurrency} task(s) at once of ${formatBytes(this.perTaskBytes)} (CONTAINER_DISK) would take ${asked}, but ${this.describeTotal()} holds ${slots}: at most ${slots} run at once, the others wait for a share`;
  }

  private async measure(): Promise<void> {
    this.total = await this.source();
    this.slots = this.total === undefined ? undefined : Math.floor(this.total.bytes / this.perTaskBytes);
    if (this.total === undefined && !this.toldUnknown) {
      this.toldUnknown = true;
      this.log("disk shares: the free disk of the engine is not knowable from here; nothing bounds the running tasks' disk in total (set TASKS_DISK_TOTAL)");
    }
  }

  private grant(): DiskShare {
    this.held += 1;
    return this.shareObject();
  }

  // A waiter is granted the share its releaser held: `held` stays as it was.
  private shareObject(): DiskShare {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const next = this.waiting.shift();
        if (next) next.grant();
        else this.held -= 1;
      },
    };
  }

  private tellWaiting(slots: number): void {
    if (this.toldWaiting) return;
    this.toldWaiting = true;
    this.log(
      `disk shares: ${this.describeTotal()} holds ${slots} task(s) of ${formatBytes(this.perTaskBytes)} (CONTAINER_DISK) at once; ${this.held} running, the others wait for a share`,
    );
  }

  private unavailable(): SandboxError {
    return new SandboxError(
      'DISK_SHARE_UNAVAILABLE',
      `a task needs a disk share of ${formatBytes(this.perTaskBytes)} (CONTAINER_DISK), but ${this.describeTotal()} holds none, with ${this.held} task(s) running: lower CONTAINER_DISK or free disk`,
    );
  }

  private describeTotal(): string {
    return this.total ? `${formatBytes(this.total.bytes)} ${this.total.source}` : 'an unbounded total';
  }
}

/**
 * The local sandboxes' shares: their workspaces are folders of `tmpDir`, so the total is TASKS_DISK_TOTAL
 * when given (0: none is made), else the free disk of the filesystem that holds `tmpDir`. The local
 * sandbox limits no task's writes: the share only bounds how many run at once.
 */
export function workspaceDiskShares(options: SandboxOptions, log: (line: string) => void): DiskShares | undefined {
  if (options.diskTotalBytes === 0) return undefined;
  const given = options.diskTotalBytes;
  const source: DiskTotalSource = async () => {
    if (given !== undefined) return { bytes: given, source: 'in total (TASKS_DISK_TOTAL)' };
    const found = await statfs(options.tmpDir).catch(() => undefined);
    return found && { bytes: found.bavail * found.bsize, source: `free on ${options.tmpDir} (the workspaces' filesystem)` };
  };
  return new DiskShares(options.diskBytes, source, log);
}
