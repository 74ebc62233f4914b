import { SandboxError } from '@arvo-rca/sandbox';

/** How an engine is watched while operations wait on it; the defaults suit a loaded machine. */
export interface EngineWatchTiming {
  /** Pause between two pings. */
  intervalMs: number;
  /** How long one ping may take. */
  pingTimeoutMs: number;
  /** Pings in a row left unanswered before the engine counts as gone. */
  misses: number;
}

export const ENGINE_WATCH_TIMING: EngineWatchTiming = { intervalMs: 5_000, pingTimeoutMs: 10_000, misses: 3 };

/** What the watch asks of an engine. */
export interface EngineProbe {
  readonly address: string;
  answers(timeoutMs: number): Promise<boolean>;
}

/** An operation that waits on the engine: what it is, and how to fail it. */
interface Watched {
  what: string;
  fail(error: SandboxError): void;
}

/**
 * Pings an engine while any operation waits on it, one ping for all of them. An engine that stopped
 * answering (stopped, paused, unreachable) would otherwise leave each operation hanging until its own,
 * long, deadline; here they fail with ENGINE_UNAVAILABLE, saying which engine, for how long it was silent,
 * and what each was doing. One watch for all: at 128 tasks at once every command was an operation, and
 * a watch of its own (a timer, an abort signal and its listener, a ping every interval for a long one)
 * for each of them was work on the agent's loop and pings on the engine that told nothing more.
 */
export class EngineWatch {
  private readonly waiting = new Set<Watched>();
  private running = false;

  constructor(
    private readonly engine: EngineProbe,
    private readonly timing: EngineWatchTiming = ENGINE_WATCH_TIMING,
  ) {}

  /** `work`, failed with ENGINE_UNAVAILABLE once the engine stops answering while it waits. */
  async whileAnswers<T>(what: string, work: Promise<T>): Promise<T> {
    // The executor runs at once: `watched` is set before it is added.
    let watched!: Watched;
    const lost = new Promise<never>((_, reject) => {
      watched = { what, fail: reject };
    });
    this.waiting.add(watched);
    this.run();
    try {
      return await Promise.race([work, lost]);
    } finally {
      this.waiting.delete(watched);
    }
  }

  // Pings every interval while anything waits; once `misses` pings in a row go unanswered, fails all that wait.
  private run(): void {
    if (this.running) return;
    this.running = true;
    void this.watch().finally(() => {
      this.running = false;
      if (this.waiting.size > 0) this.run();
    });
  }

  private async watch(): Promise<void> {
    const { intervalMs, pingTimeoutMs, misses } = this.timing;
    let missed = 0;
    let silentSince = 0;
    while (this.waiting.size > 0) {
      await pause(intervalMs);
      if (this.waiting.size === 0) return;
      const before = Date.now();
      if (await this.engine.answers(pingTimeoutMs)) {
        missed = 0;
        continue;
      }
      if (missed++ === 0) silentSince = before;
      if (missed < misses) continue;
      const silentS = Math.round((Date.now() - silentSince) / 1000);
      for (const watched of [...this.waiting]) {
        this.waiting.delete(watched);
        const reason = `the Docker engine at ${this.engine.address} stopped answering (${misses} pings in a row unanswered, ${silentS} s) while ${watched.what}`;
        watched.fail(new SandboxError('ENGINE_UNAVAILABLE', reason));
      }
      missed = 0;
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
