import { SeededRandom } from '@arvo-rca/stats';
import { drawTasks, isSeed, MAX_SEED, randomSeed } from './seeded-draw';

/** The generator the draws use, as a function of no arguments. */
function mulberry32(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.nextUint32();
}

// mulberry32 as it is usually published: its state a float that grows, its output a fraction of 2^32.
function publishedMulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    let t = (a += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const outputs = (next: () => number, count: number): number[] => Array.from({ length: count }, () => next());

describe('mulberry32', () => {
  it('gives the outputs of the published generator, as whole numbers, for as long as that one stays exact', () => {
    for (const seed of [0, 1, 7, 123_456_789, MAX_SEED]) {
      expect(outputs(mulberry32(seed), 100_000)).toEqual(outputs(publishedMulberry32(seed), 100_000).map((fraction) => fraction * 2 ** 32));
    }
  });

  // Computed by an implementation of the header's description in another language (Python integers).
  it('gives the outputs an independent implementation of the documented algorithm gives', () => {
    expect(outputs(mulberry32(0), 5)).toEqual([1144304738, 1416247, 958946056, 627933444, 2007157716]);
    expect(outputs(mulberry32(7), 3)).toEqual([50271532, 266108690, 4195786334]);
    expect(outputs(mulberry32(MAX_SEED), 3)).toEqual([3850105811, 813802916, 3073704848]);
  });
});

describe('drawTasks', () => {
  const hundred = Array.from({ length: 100 }, (_, index) => `arvo:${index}`);

  it('draws the same tasks for the same seed, and others for another seed', () => {
    expect(drawTasks(hundred, 10, 7)).toEqual(drawTasks(hundred, 10, 7));
    expect(drawTasks(hundred, 10, 8)).not.toEqual(drawTasks(hundred, 10, 7));
  });

  it('draws distinct entries of the list, leaving the list as it was', () => {
    const list = [...hundred];

    const drawn = drawTasks(list, 60, 99);

    expect(new Set(drawn).size).toBe(60);
    expect(drawn.every((task) => hundred.includes(task))).toBe(true);
    expect(list).toEqual(hundred);
  });

  it('draws the first k of a larger draw with the same seed', () => {
    expect(drawTasks(hundred, 40, 5).slice(0, 10)).toEqual(drawTasks(hundred, 10, 5));
  });

  it('takes the whole list in its order when asked for all of it', () => {
    expect(drawTasks(hundred, 100, 5)).toEqual(hundred);
  });

  it('gives every entry the same chance', () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 8000; seed++) {
      const [task] = drawTasks(['a', 'b', 'c', 'd'], 1, seed);
      counts.set(task, (counts.get(task) ?? 0) + 1);
    }

    // 2,000 expected each; four standard deviations are about 155.
    for (const task of ['a', 'b', 'c', 'd']) expect(Math.abs((counts.get(task) ?? 0) - 2000)).toBeLessThan(200);
  });

  it('refuses a count the list cannot give and a seed that is no 32-bit whole number', () => {
    expect(() => drawTasks(hundred, 101, 1)).toThrow('cannot draw 101 of a list of 100');
    expect(() => drawTasks(hundred, 1.5, 1)).toThrow(RangeError);
    expect(() => drawTasks(hundred, 1, -1)).toThrow('the seed must be a whole number from 0 to 4294967295, not -1');
    expect(() => drawTasks(hundred, 1, 2 ** 32)).toThrow(RangeError);
  });
});

describe('seeds', () => {
  it('draws fresh seeds that are valid seeds', () => {
    const seeds = Array.from({ length: 50 }, randomSeed);

    expect(seeds.every(isSeed)).toBe(true);
    expect(new Set(seeds).size).toBeGreaterThan(45);
  });

  it('takes whole numbers from 0 to 2^32 - 1 as seeds, and nothing else', () => {
    expect([0, 7, MAX_SEED].every(isSeed)).toBe(true);
    expect([-1, 0.5, 2 ** 32, '7', Number.NaN, null].some(isSeed)).toBe(false);
  });
});
