// The 95% intervals of the Result's means: a percentile bootstrap over tasks, with a seed and a number of
// resamples that the Result records beside them.
import { bootstrapMeanIntervals, type BootstrapSettings, type Interval } from '@arvo-rca/stats';
import { columnValues, METRIC_COLUMNS, SCALAR_METRICS, TOP_K_METRICS, type ScalarMetric, type TopKKey, type TopKMetric } from './metric-columns';
import type { Nullable } from './solver-usage';
import { TOP_KS, type LocalizationMetrics } from './task-metrics';

/**
 * Fixed, so that a Result's intervals can be drawn again by anyone: the seed, and 2,000 resamples (the
 * Monte Carlo error of a 95% percentile end is then about 6% of the bootstrap's standard error, under 0.01
 * for a run of 25 tasks or more).
 */
export const BOOTSTRAP: BootstrapSettings = { seed: 2026, resamples: 2000, level: 0.95 };

type TopKIntervals = Record<TopKKey, Interval | null>;

/** Each mean's interval under the mean's own name; null when the mean is over no task. */
export type MeanIntervals = { [K in ScalarMetric as `${'' | 'rc_'}${K}_mean`]: Interval | null } & {
  [K in TopKMetric as `${'' | 'rc_'}${K}_mean`]: TopKIntervals;
};

export interface ResultConfidence {
  method: 'percentile bootstrap over tasks';
  /** The seeded PRNG that draws the resamples (libs/stats). */
  prng: 'mulberry32';
  seed: number;
  resamples: number;
  level: number;
  /** Tasks are resampled in the order of their result keys, sorted: a resumed or sharded run gets the intervals of an uninterrupted one. */
  order: 'result keys sorted';
  intervals: MeanIntervals;
}

/** A task as the means see it: its key in the Result and its metrics (the parity ones, or the root-cause ones under plain names). */
interface KeyedMetrics {
  key: string;
  metrics: Nullable<LocalizationMetrics>;
}

/** The intervals of the means over `graded` and, under `rc_` names, over `rcGraded`. */
export function resultConfidence(graded: readonly KeyedMetrics[], rcGraded: readonly KeyedMetrics[]): ResultConfidence {
  return {
    method: 'percentile bootstrap over tasks',
    prng: 'mulberry32',
    seed: BOOTSTRAP.seed,
    resamples: BOOTSTRAP.resamples,
    level: BOOTSTRAP.level,
    order: 'result keys sorted',
    intervals: { ...named('', columnIntervals(graded)), ...named('rc_', columnIntervals(rcGraded)) } as MeanIntervals,
  };
}

/** Each column's interval over the tasks, resampled in their canonical order. */
export function columnIntervals(tasks: readonly KeyedMetrics[]): (Interval | null)[] {
  const rows = byKey(tasks).map((task) => columnValues(task.metrics));
  return bootstrapMeanIntervals(rows, METRIC_COLUMNS.length, BOOTSTRAP);
}

/** The tasks sorted by key, by UTF-16 code unit (not locale): the same order everywhere. */
export function byKey<T extends { key: string }>(tasks: readonly T[]): T[] {
  return [...tasks].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function named(prefix: '' | 'rc_', intervals: (Interval | null)[]): Record<string, Interval | null | TopKIntervals> {
  const at = (name: string): Interval | null => intervals[METRIC_COLUMNS.findIndex((column) => column.name === name)];
  return Object.fromEntries([
    ...SCALAR_METRICS.map((metric) => [`${prefix}${metric}_mean`, at(metric)]),
    ...TOP_K_METRICS.map((metric) => [`${prefix}${metric}_mean`, Object.fromEntries(TOP_KS.map((k) => [`${k}`, at(`${metric}[${k}]`)]))]),
  ]);
}
