/** What one holder still needs: each key once per use to come, released as each use ends. */
interface NeededHold {
  /** One use of `key` ended. */
  release(key: string): void;
  /** The holder ended: it needs none of them any more. */
  releaseAll(): void;
}

/**
 * Keys (images, task data) that a holder still needs, counted per use across every holder: a disk budget
 * never removes what is needed. An assessment holds its tasks' keys when it starts and releases each as
 * its task ends.
 */
export class NeededSet {
  private readonly counts = new Map<string, number>();

  hold(keys: readonly string[]): NeededHold {
    const held = new Map<string, number>();
    for (const key of keys) {
      held.set(key, (held.get(key) ?? 0) + 1);
      this.add(key, 1);
    }
    return {
      release: (key) => {
        const left = held.get(key) ?? 0;
        if (left === 0) return;
        held.set(key, left - 1);
        this.add(key, -1);
      },
      releaseAll: () => {
        for (const [key, left] of held) this.add(key, -left);
        held.clear();
      },
    };
  }

  isNeeded(key: string): boolean {
    return (this.counts.get(key) ?? 0) > 0;
  }

  private add(key: string, change: number): void {
    const count = (this.counts.get(key) ?? 0) + change;
    if (count > 0) this.counts.set(key, count);
    else this.counts.delete(key);
  }
}
