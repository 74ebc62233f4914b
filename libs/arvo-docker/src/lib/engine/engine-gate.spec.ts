import { ABSORBED, createEngineGate, nextLimit, QUEUED } from './engine-gate';

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

describe('nextLimit: the pace of starts sets how many go at once', () => {
  const best = 200;

  it('lets one more go at once after a start as quick as the fastest while the gate was full', () => {
    expect(nextLimit(2, best * 1.2, best, true, 32)).toBe(3);
    expect(nextLimit(32, best, best, true, 32)).toBe(32);
  });

  it('learns nothing from a quick start while the gate had room: the engine was not asked for more', () => {
    expect(nextLimit(2, best, best, false, 32)).toBe(2);
  });

  it(`lets one fewer go at once after a start that took over ${QUEUED} times the fastest, down to one`, () => {
    expect(nextLimit(6, best * QUEUED + 1, best, true, 32)).toBe(5);
    expect(nextLimit(1, best * 10, best, true, 32)).toBe(1);
  });

  it(`keeps the limit for starts between ${ABSORBED} and ${QUEUED} times the fastest`, () => {
    expect(nextLimit(4, best * 3, best, true, 32)).toBe(4);
  });
});
