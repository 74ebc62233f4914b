import { median, percentile, round } from './bench-stats';

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
});
