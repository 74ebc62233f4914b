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

/** Starts that began with the gate full at one limit, before the gate judges that limit by them. */
export const SAMPLES_PER_LIMIT = 3;
/** One more at once is kept when it adds at least this share of the pace one more would add were starts free. */
export const GAIN = 0.5;
/** One fewer goes at once when one more cost the pace more than this share. */
export const LOSS = 0.1;

/**
 * The next limit, from the mean start time at this limit (`ms`, starts that began with the gate full)
 * and at one fewer (`below`, measured just before; undefined when the gate did not come from there). By Little's law the engine's
 * pace at a limit is limit / ms: one more at once is tried while the last one raised the pace by at
 * least GAIN of the linear gain, one fewer goes at once when it lowered the pace by LOSS, and the limit
 * holds between. Start times only, never the fastest start ever seen: a busy engine (other tasks'
 * commands and copies) makes every start slower at every limit, and what one more at once adds is what
 * tells whether the engine keeps up.
 */
export function nextLimit(limit: number, ms: number, below: number | undefined, max: number): number {
  if (limit <= 1 || below === undefined) return Math.min(max, limit + 1);
  const pace = limit / ms;
  const paceBelow = (limit - 1) / below;
  if (pace >= paceBelow * (1 + GAIN / (limit - 1))) return Math.min(max, limit + 1);
  if (pace < paceBelow * (1 - LOSS)) return limit - 1;
  return limit;
}

/**
 * Start times at each limit: the visit under way (its latest starts), and the one just before it. A limit
 * is judged against one fewer only when the gate came from there: a pace measured longer ago, before the
 * engine got busier (more tasks running their commands), would make every limit look worse than the last.
 * Without it, one more is tried, so the gate keeps probing the limit above as the load changes.
 */
class PaceLog {
  private previous: { limit: number; mean: number } | undefined;
  private visit = { limit: 0, times: [] as number[] };

  /** One start that began with the gate full at `limit` (the current one); the next limit once enough were seen. */
  add(limit: number, ms: number, max: number): number | undefined {
    if (limit !== this.visit.limit) {
      if (this.visit.times.length >= SAMPLES_PER_LIMIT) this.previous = { limit: this.visit.limit, mean: mean(this.visit.times) };
      this.visit = { limit, times: [] };
    }
    const times = this.visit.times;
    times.push(ms);
    if (times.length > SAMPLES_PER_LIMIT) times.shift();
    if (times.length < SAMPLES_PER_LIMIT) return undefined;
    const below = this.previous?.limit === limit - 1 ? this.previous.mean : undefined;
    return nextLimit(limit, mean(times), below, max);
  }
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * At most `limit` pieces of work at once, the limit learnt from how long starts take (or fixed; see
 * nextLimit). A piece
 * that takes longer than the slot limit (an engine call that hangs) keeps its caller waiting but frees
 * its place, so one stuck task cannot stall the starts and removals of all the others.
 */
export function createEngineGate(initial: number, options: EngineGateOptions = {}): EngineGate {
  const slotLimitMs = options.slotLimitMs ?? ENGINE_SLOT_LIMIT_MS;
  const max = Math.max(initial, options.max ?? 32);
  const waiting: Array<() => void> = [];
  let limit = Math.max(1, initial);
  let running = 0;
  const log = new PaceLog();

  const next = (): void => {
    while (running < limit && waiting.length > 0) {
      running += 1;
      waiting.shift()?.();
    }
  };
  // Only starts that began with the gate full at the limit now say what that limit does.
  const learn = (ms: number, full: boolean, at: number): void => {
    if (options.fixed || !full || at !== limit) return;
    limit = log.add(limit, ms, max) ?? limit;
  };

  const gate = <T>(work: () => Promise<T>, kind: EngineWork = 'other'): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.push(() => {
        const full = running >= limit;
        const at = limit;
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
          if (succeeded && kind === 'start') learn(performance.now() - began, full, at);
          running -= 1;
          next();
        });
      });
      next();
    });
  Object.defineProperty(gate, 'limit', { get: () => limit });
  return gate as EngineGate;
}
