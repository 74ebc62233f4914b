import type { TaskRef } from '@arvo-rca/common';

/** What a window does for the tasks ahead of their turn. */
export interface AheadWork {
  /** Fetches one task's files and image; false when the image budget has no room for the image yet. Never throws. */
  fetch(ref: TaskRef, signal: AbortSignal): Promise<boolean>;
  /** Prepares task `index` for its turn (its sandbox started); called once per task, only before its turn. */
  prepare(index: number): void;
}

/**
 * An assessment's window of tasks fetched ahead: while tasks run, the next `size` tasks of the list whose
 * turn has not come have their files fetched and their images pulled, one task after another in the order
 * they will run, and the first `preparing` of them (at most `size`), once fetched, are prepared. A task whose image finds no
 * room in the budget is tried again when a task ends (or its turn comes first, and it pulls its own). A
 * task whose turn comes while the window fetches it is left to its own run (which joins its pull), and the
 * window goes on at once: the tasks after it are not held up by its pull. Size 0: nothing is fetched nor
 * prepared ahead.
 */
export class FetchAhead {
  /** The first task whose turn has not come. */
  private turn = 0;
  private changes = 0;
  private waiting: (() => void) | undefined;
  private readonly fetched = new Set<number>();
  private readonly prepared = new Set<number>();
  private readonly stopped = new AbortController();
  private readonly fetching: Promise<void>;
  /** The task being fetched now, and how the window leaves it when its turn comes. */
  private current: { index: number; passed: () => void } | undefined;
  /** Fetches left to their task's own run, still ending: waited for at close. */
  private readonly leaving = new Set<Promise<boolean>>();

  constructor(
    private readonly tasks: readonly TaskRef[],
    private readonly size: number,
    private readonly preparing: number,
    private readonly work: AheadWork,
    signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', () => this.stop(), { once: true });
    this.fetching = size > 0 && !signal?.aborted ? this.fetchAll() : Promise.resolve();
  }

  /** Task `index` has its turn: the window moves on past it. */
  turnOf(index: number): void {
    this.turn = Math.max(this.turn, index + 1);
    if (this.current && this.current.index < this.turn) this.current.passed();
    this.prepareDue();
    this.changed();
  }

  /** A task ended: the image budget may have room now for what waits. */
  taskEnded(): void {
    this.changed();
  }

  /** Fetches and prepares nothing more; a pull that only this window waits for is cancelled. */
  async close(): Promise<void> {
    this.stop();
    await this.fetching;
    await Promise.all(this.leaving);
  }

  private async fetchAll(): Promise<void> {
    let next = 0;
    while (!this.stopped.signal.aborted) {
      // Tasks whose turn came meanwhile fetch their own.
      next = Math.max(next, this.turn);
      if (next >= this.tasks.length) return;
      const seen = this.changes;
      if (next >= this.turn + this.size) await this.nextChange(seen);
      else if (await this.fetchOne(next)) {
        this.fetched.add(next);
        next += 1;
        this.prepareDue();
      } else if (next < this.turn) continue;
      else await this.nextChange(seen);
    }
  }

  /**
   * Task `index` fetched (true), or no room for its image yet (false); false too when its turn came first:
   * its fetch goes on for its own run, which joins its pull, and is waited for at close.
   */
  private async fetchOne(index: number): Promise<boolean> {
    const fetch = this.work.fetch(this.tasks[index], this.stopped.signal);
    const turnCame = new Promise<false>((resolve) => (this.current = { index, passed: () => resolve(false) }));
    const outcome = await Promise.race([fetch, turnCame]);
    this.current = undefined;
    if (index < this.turn) {
      this.leaving.add(fetch);
      const gone = (): boolean => this.leaving.delete(fetch);
      fetch.then(gone, gone);
    }
    return outcome;
  }

  // The first tasks of the window that are fetched, and not prepared yet.
  private prepareDue(): void {
    const end = Math.min(this.turn + this.preparing, this.tasks.length);
    for (let index = this.turn; index < end && !this.stopped.signal.aborted; index++) {
      if (!this.fetched.has(index) || this.prepared.has(index)) continue;
      this.prepared.add(index);
      this.work.prepare(index);
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
