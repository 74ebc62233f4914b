import { createEngineGate } from './engine-gate';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('createEngineGate', () => {
  it('runs at most the given number of pieces at once, in order, and hands back their results and errors', async () => {
    const gate = createEngineGate(2);
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
    const gate = createEngineGate(1, 50);
    let release: (() => void) | undefined;
    const hung = gate(() => new Promise<string>((resolve) => (release = () => resolve('hung, then done'))));
    const started = Date.now();

    expect(await gate(async () => 'next')).toBe('next');
    expect(Date.now() - started).toBeLessThan(1000);
    release?.();
    expect(await hung).toBe('hung, then done');
  });
});
