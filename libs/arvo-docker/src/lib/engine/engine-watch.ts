import { SandboxError } from '@arvo-rca/sandbox';

/** How an engine is watched while an operation waits on it; the defaults suit a loaded machine. */
export interface EngineWatchTiming {
  /** Pause between two pings. */
  intervalMs: number;
  /** How long one ping may take. */
  pingTimeoutMs: number;
  /** Pings in a row left unanswered before the engine counts as gone. */
  misses: number;
}

export const ENGINE_WATCH_TIMING: EngineWatchTiming = { intervalMs: 5_000, pingTimeoutMs: 10_000, misses: 3 };

// Why a watch ends: its operation is over. One value for all: an abort with no reason makes a DOMException
// and its stack each time, once per command of every task.
const OPERATION_OVER = 'the operation is over';

/** What the watch asks of an engine. */
export interface EngineProbe {
  readonly address: string;
  answers(timeoutMs: number): Promise<boolean>;
}

/**
 * Waits for `work` while pinging the engine on the side. An engine that stopped answering (stopped,
 * paused, unreachable) would otherwise leave the operation hanging until its own, long, deadline;
 * here it fails with ENGINE_UNAVAILABLE and says which engine and for how long it was silent.
 */
export async function whileEngineAnswers<T>(engine: EngineProbe, what: string, work: Promise<T>, timing: EngineWatchTiming = ENGINE_WATCH_TIMING): Promise<T> {
  const watch = new AbortController();
  const lost = watchEngine(engine, watch.signal, timing).then((silentMs) => {
    throw new SandboxError(
      'ENGINE_UNAVAILABLE',
      `the Docker engine at ${engine.address} stopped answering (${timing.misses} pings in a row unanswered, ${Math.round(silentMs / 1000)} s) while ${what}`,
    );
  });
  try {
    return await Promise.race([work, lost]);
  } finally {
    watch.abort(OPERATION_OVER);
    lost.catch(() => undefined);
  }
}

/** Resolves with how long the engine was silent once it missed `misses` pings in a row; never, if aborted first. */
async function watchEngine(engine: EngineProbe, signal: AbortSignal, timing: EngineWatchTiming): Promise<number> {
  let missed = 0;
  let silentSince = 0;
  for (;;) {
    await pause(timing.intervalMs, signal);
    if (signal.aborted) return new Promise<number>(() => undefined);
    const before = Date.now();
    if (await engine.answers(timing.pingTimeoutMs)) {
      missed = 0;
      continue;
    }
    if (missed++ === 0) silentSince = before;
    if (signal.aborted) return new Promise<number>(() => undefined);
    if (missed >= timing.misses) return Date.now() - silentSince;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
