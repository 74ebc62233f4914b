// Percentile bootstrap of means over tasks: resample the tasks with replacement, take each column's mean
// of every resample, and read the interval off the sorted resampled means.
import { SeededRandom } from './seeded-random';

/** A confidence interval: [low, high]. */
export type Interval = [number, number];

export interface BootstrapSettings {
  /** Seed of the PRNG; recorded beside the intervals, so anyone can draw the same resamples. */
  seed: number;
  resamples: number;
  /** 0.95 for a 95% interval. */
  level: number;
}

/**
 * Each column's interval for its mean over the rows (one row per task, one column per metric), or null
 * for each column when there are no rows. Resample b draws rows.length indices from the PRNG, one after
 * another, and every column of that resample shares them; sums run in draw order. The rows must come in
 * a canonical order (the caller's: tasks sorted by key), so that the intervals depend only on the seed and
 * the set of tasks, never on the order they ran in.
 */
export function bootstrapMeanIntervals(rows: readonly (readonly number[])[], columns: number, settings: BootstrapSettings): (Interval | null)[] {
  const count = rows.length;
  if (count === 0) return Array.from({ length: columns }, () => null);
  const random = new SeededRandom(settings.seed);
  // resampled[c * resamples + b]: the mean of column c in resample b.
  const resampled = new Float64Array(columns * settings.resamples);
  const sums = new Float64Array(columns);
  for (let b = 0; b < settings.resamples; b++) {
    sums.fill(0);
    for (let draw = 0; draw < count; draw++) {
      const row = rows[random.nextIndex(count)];
      for (let c = 0; c < columns; c++) sums[c] += row[c];
    }
    for (let c = 0; c < columns; c++) resampled[c * settings.resamples + b] = sums[c] / count;
  }
  const tail = (1 - settings.level) / 2;
  return Array.from({ length: columns }, (_, c) => {
    const means = resampled.subarray(c * settings.resamples, (c + 1) * settings.resamples).sort();
    return [quantile(means, tail), quantile(means, 1 - tail)];
  });
}

/**
 * The p-quantile of sorted values by linear interpolation between closest ranks (Hyndman and Fan's
 * type 7, the default of R and NumPy): h = (n - 1) p, then between values floor(h) and floor(h) + 1.
 */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const below = Math.floor(h);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (h - below) * (sorted[above] - sorted[below]);
}
