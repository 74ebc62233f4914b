/** What a piece of work in the gate is: a container start teaches the gate the engine's pace; the rest only waits its turn. */
export type EngineWork = 'start' | 'other';

/** Runs engine-heavy work (container start, removal, restart) a few at a time. */
export interface EngineGate {
  <T>(work: () => Promise<T>, kind?: EngineWork): Promise<T>;
  /** How many pieces may run at once now. */
  readonly limit: number;
}

/** How long one piece of work may hold its place in the gate; a normal start takes well under a second. */
export const ENGINE_SLOT_LIMIT_MS = 60_000;

export interface EngineGateOptions {
  /** Held fixed when set; otherwise the limit adapts to the engine, from `initial`. */
  fixed?: boolean;
  /** Bounds of an adapting limit. */
  max?: number;
  slotLimitMs?: number;
}

/** Starts that take under this many times the fastest one seen: the engine did them side by side. */
export const ABSORBED = 2;
/** Starts that take over this many times the fastest one: they queued inside the engine, where waiting costs more. */
export const QUEUED = 4;

/**
 * The next limit after a start that took `ms`, with `best` the fastest start seen and `full` whether the
 * gate was full when it began. The engine's pace, not the green agent's CPUs, sets it: a start as quick
 * as the fastest while the gate was full says the engine could take one more at once; one that took
 * several times as long says starts queue inside the engine, and one fewer goes at a time.
 */
export function nextLimit(limit: number, ms: number, best: number, full: boolean, max: number): number {
  if (ms > QUEUED * best) return Math.max(1, limit - 1);
  if (full && ms < ABSORBED * best) return Math.min(max, limit + 1);
  return limit;
}

/**
 * At most `limit` pieces of work at once, the limit learnt from how long starts take (or fixed). A piece
 * that takes longer than the slot limit (an engine call that hangs) keeps its caller waiting but frees
 * its place, so one stuck task cannot stall the starts and removals of all the others.
 */
export function createEngineGate(initial: number, options: EngineGateOptions = {}): EngineGate {
  const slotLimitMs = options.slotLimitMs ?? ENGINE_SLOT_LIMIT_MS;
  const max = Math.max(initial, options.max ?? 32);
  const waiting: Array<() => void> = [];
  let limit = Math.max(1, initial);
  let running = 0;
  let best = Number.POSITIVE_INFINITY;

  const next = (): void => {
    while (running < limit && waiting.length > 0) {
      running += 1;
      waiting.shift()?.();
    }
  };
  const learn = (ms: number, full: boolean): void => {
    if (options.fixed) return;
    best = Math.min(best, ms);
    limit = nextLimit(limit, ms, best, full, max);
  };

  const gate = <T>(work: () => Promise<T>, kind: EngineWork = 'other'): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        const full = running >= limit;
        const began = performance.now();
        const piece = work();
        piece.then(resolve, reject);
        let timer: NodeJS.Timeout | undefined;
        const freed = new Promise<void>((done) => (timer = setTimeout(done, slotLimitMs)));
        void Promise.race([
          piece.then(
            () => true,
            () => false,
          ),
          freed.then(() => false),
        ]).then((succeeded) => {
          clearTimeout(timer);
          if (succeeded && kind === 'start') learn(performance.now() - began, full);
          running -= 1;
          next();
        });
      });
      next();
    });
  Object.defineProperty(gate, 'limit', { get: () => limit });
  return gate as EngineGate;
}
