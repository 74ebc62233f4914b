/** Token counts of one model call. `input` excludes the prompt tokens read from or written to the cache. */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_USAGE: TokenUsage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

export interface UsageSnapshot extends TokenUsage {
  /** Successful model calls; retried attempts count once. */
  calls: number;
  /** USD, from the price table. */
  cost: number;
}

/**
 * Running totals of model calls: one per task context, and one per process (owned by whoever
 * creates the contexts and handed to each of them).
 */
export class UsageTotals {
  private totals: UsageSnapshot = { calls: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };

  add(usage: TokenUsage, cost: number): void {
    const t = this.totals;
    this.totals = {
      calls: t.calls + 1,
      input: t.input + usage.input,
      output: t.output + usage.output,
      cacheRead: t.cacheRead + usage.cacheRead,
      cacheWrite: t.cacheWrite + usage.cacheWrite,
      cost: t.cost + cost,
    };
  }

  get calls(): number {
    return this.totals.calls;
  }

  get cost(): number {
    return this.totals.cost;
  }

  snapshot(): UsageSnapshot {
    return { ...this.totals };
  }
}
