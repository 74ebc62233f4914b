import { createEngineGate, GAIN, LOSS, nextLimit } from './engine-gate';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('createEngineGate', () => {
  it('runs at most the given number of pieces at once, in order, and hands back their results and errors', async () => {
    const gate = createEngineGate(2, { fixed: true });
    let running = 0;
    let most = 0;
    const piece = (value: number) => async (): Promise<number> => {
      running += 1;
      most = Math.max(most, running);
      await later(20);
      running -= 1;
      if (value === 3) throw new Error('piece 3 failed');
      return value;
    };

    const results = await Promise.allSettled([1, 2, 3, 4, 5].map((value) => gate(piece(value))));

    expect(most).toBe(2);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).toEqual([1, 2, 'piece 3 failed', 4, 5]);
  });

  it('frees the place of a piece that hangs past the slot limit, which keeps only its own caller waiting', async () => {
    const gate = createEngineGate(1, { fixed: true, slotLimitMs: 50 });
    let release: (() => void) | undefined;
    const hung = gate(() => new Promise<string>((resolve) => (release = () => resolve('hung, then done'))));
    const started = Date.now();

    expect(await gate(async () => 'next')).toBe('next');
    expect(Date.now() - started).toBeLessThan(1000);
    release?.();
    expect(await hung).toBe('hung, then done');
  });

  it('starts at its initial limit and holds a fixed one whatever the starts take', async () => {
    const gate = createEngineGate(3, { fixed: true });
    await Promise.all([1, 2, 3, 4].map(() => gate(() => later(5), 'start')));

    expect(gate.limit).toBe(3);
  });
});

/**
 * An engine that does `slots` starts side by side, each taking `ms`, and queues the rest: the gate's
 * starts run against it as against a busy engine whose every start is slow, however few run at once.
 */
function busyEngine(slots: number, ms: number | (() => number)): () => Promise<void> {
  let free = slots;
  const queued: Array<() => void> = [];
  return async () => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => queued.push(resolve));
    await later(typeof ms === 'number' ? ms : ms());
    const next = queued.shift();
    if (next) next();
    else free += 1;
  };
}

describe('the adaptive gate against an engine', () => {
  it('lets more start at once while the engine keeps up, though its first start, alone on an idle engine, was 4 times as quick', async () => {
    const gate = createEngineGate(2);
    await gate(() => later(40), 'start');
    const engine = busyEngine(6, 250);
    const limits: number[] = [];
    const start = async (): Promise<void> => {
      await engine();
      limits.push(gate.limit);
    };
    await Promise.all(Array.from({ length: 48 }, () => gate(start, 'start')));

    // The engine does 6 at once: the gate comes to 6 without going far past it (timers on a busy machine
    // make the starts' times noisy, so what it reached, not where it happened to end).
    expect(Math.max(...limits)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...limits)).toBeLessThanOrEqual(9);
  }, 30_000);
});

describe('the adaptive gate against an engine that gets busier', () => {
  it('holds near what the engine does at once while every start gets slower, judging each limit against the one just before', async () => {
    const gate = createEngineGate(2);
    // The engine does 6 at once, each start slower than the one before: more and more tasks run their commands.
    let begun = 0;
    const engine = busyEngine(6, () => 150 + 3 * begun++);
    const limits: number[] = [];
    const start = async (): Promise<void> => {
      await engine();
      limits.push(gate.limit);
    };
    await Promise.all(Array.from({ length: 72 }, () => gate(start, 'start')));

    // Every start took longer than the last, so a pace measured earlier looked better than any now: judged
    // against those, the gate came down start after start; judged against the limit just before, it stays.
    expect(Math.min(...limits.slice(-12))).toBeGreaterThanOrEqual(5);
  }, 60_000);
});

describe('nextLimit: what one more start at once does to the pace sets how many go at once', () => {
  it('tries one more at once where it has no pace at one fewer to go by', () => {
    expect(nextLimit(2, 500, undefined, 32)).toBe(3);
    expect(nextLimit(1, 500, undefined, 32)).toBe(2);
    expect(nextLimit(32, 500, undefined, 32)).toBe(32);
  });

  it(`lets one more go at once while the last one added at least ${GAIN} of a linear gain to the pace`, () => {
    // 4 at once in 330 ms against 3 in 300: the pace went from 10 to 12 starts a second.
    expect(nextLimit(4, 330, 300, 32)).toBe(5);
    // The same start time at 4 as at 3: 4/3 of the pace.
    expect(nextLimit(4, 300, 300, 32)).toBe(5);
  });

  it('holds the limit where one more at once added little to the pace, and lets one fewer go where it cost it', () => {
    // 4 at once taking 4/3 of the time 3 took: the same pace.
    expect(nextLimit(4, 400, 300, 32)).toBe(4);
    // 4 at once taking twice the time: the pace fell by a third.
    expect(nextLimit(4, 600, 300, 32)).toBe(3);
    expect(nextLimit(4, (400 / (1 - LOSS)) * 1.01, 300, 32)).toBe(3);
  });
});
