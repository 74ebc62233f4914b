// A CLI run's trajectory saves: one at a time, in order, and a step's save after its answer has left, so
// that the CLI never waits for a write.

export class TrajectorySaves {
  private saving: Promise<void> = Promise.resolve();
  private unsaved = false;

  /** `write` saves the run as it is when it is called. */
  constructor(private readonly write: () => Promise<void>) {}

  /** A step to save once its answer has left (`answered`). */
  stepped(): void {
    this.unsaved = true;
  }

  /** An answer has left: the step it ran, if any, is saved now; a failed write is the sink's to report. */
  answered(): void {
    if (!this.unsaved) return;
    this.unsaved = false;
    this.save().catch(() => undefined);
  }

  /** Saves once the saves before it are done. */
  save(): Promise<void> {
    const saved = this.saving.then(this.write);
    this.saving = saved.catch(() => undefined);
    return saved;
  }
}
