import type { TaskRef } from '@arvo-rca/common';

/** Fetches one task's files and image; false when the image budget has no room for the image yet. Never throws. */
export type FetchTask = (ref: TaskRef, signal: AbortSignal) => Promise<boolean>;

/**
 * An assessment's window of tasks fetched ahead: while tasks run, the next `size` tasks of the list whose
 * turn has not come have their files fetched and their images pulled, one task after another in the order
 * they will run. A task whose image finds no room in the budget is tried again when a task ends (or its turn
 * comes first, and it pulls its own). Size 0: nothing is fetched ahead.
 */
export class FetchAhead {
  /** The first task whose turn has not come. */
  private turn = 0;
  private changes = 0;
  private waiting: (() => void) | undefined;
  private readonly stopped = new AbortController();
  private readonly fetching: Promise<void>;

  constructor(
    private readonly tasks: readonly TaskRef[],
    private readonly size: number,
    private readonly fetchTask: FetchTask,
    signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.stop(), { once: true });
    this.fetching = size > 0 && !signal?.aborted ? this.fetchAll() : Promise.resolve();
  }

  /** Task `index` has its turn: the window moves on past it. */
  turnOf(index: number): void {
    this.turn = Math.max(this.turn, index + 1);
    this.changed();
  }

  /** A task ended: the image budget may have room now for what waits. */
  taskEnded(): void {
    this.changed();
  }

  /** Fetches nothing more; a pull that only this window waits for is cancelled. */
  async close(): Promise<void> {
    this.stop();
    await this.fetching;
  }

  private async fetchAll(): Promise<void> {
    let next = 0;
    while (!this.stopped.signal.aborted) {
      // Tasks whose turn came meanwhile fetch their own.
      next = Math.max(next, this.turn);
      if (next >= this.tasks.length) return;
      const seen = this.changes;
      if (next >= this.turn + this.size) await this.nextChange(seen);
      else if (await this.fetchTask(this.tasks[next], this.stopped.signal)) next += 1;
      else await this.nextChange(seen);
    }
  }

  private stop(): void {
    this.stopped.abort();
    this.changed();
  }

  private changed(): void {
    this.changes += 1;
    this.waiting?.();
    this.waiting = undefined;
  }

  private async nextChange(seen: number): Promise<void> {
    if (this.changes !== seen) return;
    await new Promise<void>((resolve) => (this.waiting = resolve));
  }
}
