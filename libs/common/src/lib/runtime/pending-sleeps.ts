/**
 * Sleeps that a closing server can cut short all at once: after `cancelAll` the pending ones never
 * resolve, and no timer keeps the process alive.
 */
export class PendingSleeps {
  private readonly timers = new Set<NodeJS.Timeout>();

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  cancelAll(): void {
    this.timers.forEach((timer) => clearTimeout(timer));
    this.timers.clear();
  }
}
