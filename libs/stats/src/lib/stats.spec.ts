import { bootstrapMeanIntervals, quantile } from './bootstrap';
// The same generator and bootstrap, written again in Python from their description: the independent computation.
import { referenceDraws, referenceIntervals, referencePairedIntervals } from './bootstrap-reference.testing';
import { mcnemarExact } from './mcnemar';
import { SeededRandom } from './seeded-random';

/** Rows of task metrics as a run gives them: shares, scores in [0, 1], and 0/1 hits, some tasks failed (all zero). */
function taskRows(count: number, seed: number): number[][] {
  const random = new SeededRandom(seed);
  const unit = (): number => random.nextUint32() / 2 ** 32;
  return Array.from({ length: count }, (_, task) => {
    if (task % 7 === 3) return [0, 0, 0, 0];
    return [Math.round(unit() * 4) / 4, unit(), unit() < 0.4 ? 1 : 0, 1 / (1 + random.nextIndex(5))];
  });
}

describe('the seeded PRNG (mulberry32)', () => {
  it('draws the sequence the Python port of mulberry32 draws', () => {
    for (const seed of [0, 1, 2026, 2 ** 32 - 1]) {
      const random = new SeededRandom(seed);
      const ours = Array.from({ length: 50 }, () => random.nextUint32());
      expect(ours).toEqual(referenceDraws(seed, 50));
    }
  });

  it('draws indices evenly enough over the items', () => {
    const random = new SeededRandom(7);
    const counts = [0, 0, 0, 0, 0];
    for (let draw = 0; draw < 50_000; draw++) counts[random.nextIndex(5)]++;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(400);
  });

  it('refuses a seed it would silently change, and an index among no items', () => {
    expect(() => new SeededRandom(-1)).toThrow('a seed is an integer from 0 to 2^32 - 1, not -1');
    expect(() => new SeededRandom(1.5)).toThrow(RangeError);
    expect(() => new SeededRandom(3).nextIndex(0)).toThrow('an index is drawn among 1 to 2^21 - 1 items, not 0');
  });
});

describe('the percentile bootstrap of means', () => {
  const settings = { seed: 2026, resamples: 2000, level: 0.95 };

  it.each([1, 2, 13, 120])('gives the intervals the Python reference gives, over %i tasks', (count) => {
    const rows = taskRows(count, count);
    const ours = bootstrapMeanIntervals(rows, 4, settings);
    const theirs = referenceIntervals(rows, settings);

    // The same draws, sums in the same order and the same quantile arithmetic: equal to the last bit.
    expect(ours).toEqual(theirs);
    expect(ours).toHaveLength(4);
  });

  it('gives the paired intervals the Python reference gives from the two runs’ rows', () => {
    const first = taskRows(60, 1);
    const second = taskRows(60, 2);
    const ours = bootstrapMeanIntervals(
      second.map((row, task) => row.map((value, column) => value - first[task][column])),
      4,
      settings,
    );
    const theirs = referencePairedIntervals(
      first.map((row, task) => [row, second[task]]),
      settings,
    );

    expect(ours).toEqual(theirs);
  });

  it('holds the mean inside the interval, and narrows as tasks are added', () => {
    const few = taskRows(20, 5);
    const many = [...few, ...few, ...few, ...few];
    const [narrowBase] = bootstrapMeanIntervals(few, 1, settings);
    const [narrower] = bootstrapMeanIntervals(many, 1, settings);
    const mean = few.reduce((sum, row) => sum + row[0], 0) / few.length;

    expect(narrowBase?.[0]).toBeLessThan(mean);
    expect(narrowBase?.[1]).toBeGreaterThan(mean);
    expect((narrower?.[1] ?? 0) - (narrower?.[0] ?? 0)).toBeLessThan(((narrowBase?.[1] ?? 0) - (narrowBase?.[0] ?? 0)) * 0.7);
  });

  it('gives a column every task agrees on that value as both ends, and no interval without tasks', () => {
    expect(bootstrapMeanIntervals([[0.5], [0.5], [0.5]], 1, settings)).toEqual([[0.5, 0.5]]);
    expect(bootstrapMeanIntervals([], 2, settings)).toEqual([null, null]);
  });

  it('reads quantiles between the closest ranks, as R and NumPy do by default', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.025)).toBeCloseTo(11);
    expect(quantile([7], 0.975)).toBe(7);
  });
});

describe("McNemar's exact test", () => {
  // Fagerland, Lydersen and Laake, "The McNemar test for binary matched-pairs data" (BMC Medical Research
  // Methodology 13:91, 2013): airway hyper-responsiveness before and after stem cell transplantation, 1
  // and 7 discordant pairs; the exact conditional test gives p = 0.070 (2 * 9 / 256).
  it('gives the textbook p-value of 1 against 7 discordant pairs', () => {
    expect(mcnemarExact(1, 7)).toMatchObject({ a_only: 1, b_only: 7 });
    expect(mcnemarExact(1, 7).p_value).toBeCloseTo(18 / 256, 12);
    expect(mcnemarExact(7, 1).p_value).toBeCloseTo(0.0703125, 12);
  });

  it("gives the exact binomial test's two-sided p-value: 2 of 12 gives 0.0386, 0 of 5 gives 0.0625", () => {
    // R: binom.test(2, 12)$p.value is 0.03857422 (2 * 79 / 4096); binom.test(0, 5) is 0.0625.
    expect(mcnemarExact(2, 10).p_value).toBeCloseTo(158 / 4096, 12);
    expect(mcnemarExact(0, 5).p_value).toBeCloseTo(0.0625, 12);
  });

  it('gives 1 with no discordant pair or an even split', () => {
    expect(mcnemarExact(0, 0).p_value).toBe(1);
    expect(mcnemarExact(6, 6).p_value).toBe(1);
  });

  it('stays exact for thousands of discordant pairs, where 2^-n underflows a double', () => {
    // The exact tail in whole numbers: 2 * sum of C(n, i) for i <= 460, over 2^n, with n = 1,100.
    const [aOnly, bOnly] = [460, 640];
    const n = BigInt(aOnly + bOnly);
    let choose = 1n;
    let tail = 0n;
    for (let i = 0n; i <= BigInt(aOnly); i++) {
      if (i > 0n) choose = (choose * (n - i + 1n)) / i;
      tail += choose;
    }
    const scale = 10n ** 30n;
    const exact = Number((2n * tail * scale) / 2n ** n) / Number(scale);

    expect(exact).toBeGreaterThan(0);
    expect(mcnemarExact(aOnly, bOnly).p_value / exact).toBeCloseTo(1, 9);
  });

  it('refuses counts that are not whole numbers', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow('a count of discordant pairs is a whole number, not -1');
  });
});
