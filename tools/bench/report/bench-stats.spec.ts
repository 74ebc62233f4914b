import { interleavedTimes, median, percentile, round } from './bench-stats';

describe('bench statistics', () => {
  it('takes the middle value as the median, and the mean of the two middle ones for an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('reads percentiles by nearest rank, whatever the order of the values', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);

    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 90)).toBe(7);
  });

  it('rounds figures to the digits asked for', () => {
    expect(round(1.23456)).toBe(1.23);
    expect(round(1.23456, 3)).toBe(1.235);
  });

  it('times every way once a round after untimed warm-up rounds, the order rotating from round to round', async () => {
    const order: string[] = [];
    const times = await interleavedTimes({ a: async () => order.push('a'), b: async () => order.push('b') }, 2, 1);

    expect(order).toEqual(['b', 'a', 'a', 'b', 'b', 'a']);
    expect(times.a).toHaveLength(2);
    expect(times.b).toHaveLength(2);
  });
});
