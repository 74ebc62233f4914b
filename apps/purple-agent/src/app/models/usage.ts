import type { SolverUsage } from '@arvo-rca/a2a-protocol';

/** Token counts of one model call. `input` excludes the prompt tokens read from or written to the cache. */
export interface TokenUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export const NO_USAGE: TokenUsage = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/**
 * Running totals of model calls: one per task context, and one per process (owned by whoever
 * creates the contexts and handed to each of them). What they report is the solver's usage as the
 * wire and the Result name it.
 */
export class UsageTotals {
  private tokens: TokenUsage = NO_USAGE;
  /** Successful model calls; retried attempts count once. */
  private callCount = 0;
  /** USD, from the price table; null once a call's cost is unknown (unknown is not free). */
  private totalCost: number | null = 0;
  private readonly started: number;

  constructor(private readonly clock: () => number = Date.now) {
    this.started = clock();
  }

  /** Adds `calls` model calls (one unless said: a CLI agent may report several at once) and their tokens and cost. */
  add(usage: TokenUsage, cost: number | null, calls = 1): void {
    const t = this.tokens;
    this.tokens = {
      input: t.input + usage.input,
      output: t.output + usage.output,
      cacheRead: t.cacheRead + usage.cacheRead,
      cacheWrite: t.cacheWrite + usage.cacheWrite,
    };
    this.callCount += calls;
    this.totalCost = this.totalCost === null || cost === null ? null : this.totalCost + cost;
  }

  get calls(): number {
    return this.callCount;
  }

  get cost(): number | null {
    return this.totalCost;
  }

  /** The totals so far under CyberGym's names (`input_tokens` excludes the cache); the time is since these totals began. */
  snapshot(): SolverUsage {
    const { input, output, cacheRead, cacheWrite } = this.tokens;
    return {
      input_tokens: input,
      cache_read_tokens: cacheRead,
      cache_creation_tokens: cacheWrite,
      output_tokens: output,
      est_usd_cost: this.totalCost,
      time_cost_sec: (this.clock() - this.started) / 1000,
      llm_requests: this.callCount,
    };
  }
}
