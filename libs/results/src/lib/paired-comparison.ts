// Two runs compared on the tasks both graded: per metric the mean difference with its paired-bootstrap
// interval, and for the top-k hits McNemar's exact test; and the tasks whose scores differ.
import { bootstrapMeanIntervals, mcnemarExact, type Interval, type McNemarTest } from '@arvo-rca/stats';
import { columnValues, METRIC_COLUMNS } from './metric-columns';
import { BOOTSTRAP, byKey } from './result-confidence';
import type { Nullable } from './solver-usage';
import { fromRootCause, type LocalizationMetrics, type TaskMetrics } from './task-metrics';

export interface PairedMetric {
  /** The column's name (`line_iou`, `func_topk_recall[1]`), `rc_` first for the root-cause set. */
  metric: string;
  /** Tasks paired for it: both runs graded them (for `rc_` ones, both with root-cause spans). */
  n: number;
  a_mean: number;
  b_mean: number;
  /** b_mean - a_mean: how much run B scores above run A. */
  difference: number;
  /** The paired-bootstrap interval of the difference; null over no task. */
  interval: Interval | null;
  /**
   * For the top-k metrics: McNemar's exact test on the hits, a task's hit being a top k holding at least
   * one span of the fix (a value above 0). Null for the other metrics, which are not 0/1 per task.
   */
  mcnemar: McNemarTest | null;
}

/** A task graded in both runs whose scores differ, with each metric that differs. */
export interface TaskDifference {
  task: string;
  changes: { metric: string; a: number; b: number }[];
}

export interface PairedComparison {
  method: 'paired percentile bootstrap over tasks; exact McNemar test on the top-k hits';
  prng: 'mulberry32';
  seed: number;
  resamples: number;
  level: number;
  /** Tasks graded in both runs, and those graded in both with root-cause spans. */
  n_paired: number;
  n_rc_paired: number;
  /** Tasks only one run graded (not recorded in the other, or without ground truth there): left out. */
  only_in_a: string[];
  only_in_b: string[];
  metrics: PairedMetric[];
  differing: TaskDifference[];
}

/** A run's graded tasks by result key: a task without ground truth, or not recorded, is not there. */
type GradedRun = ReadonlyMap<string, TaskMetrics>;

/**
 * Run A against run B, task by task: the pairs are resampled together in the order of their result keys,
 * with the Result's seed and resamples, so the comparison depends on the two runs' scores only.
 */
export function pairedComparison(a: GradedRun, b: GradedRun): PairedComparison {
  const graded = (run: GradedRun): GradedRun => new Map([...run].filter(([, metrics]) => metrics.status !== 'no_ground_truth'));
  const [gradedA, gradedB] = [graded(a), graded(b)];
  const paired = pairs(gradedA, gradedB, (metrics) => metrics);
  const rcPaired = pairs(gradedA, gradedB, fromRootCause).filter((pair) => pair.a.file_acc !== null && pair.b.file_acc !== null);
  const sets = [
    { prefix: '', pairs: paired },
    { prefix: 'rc_', pairs: rcPaired },
  ];
  return {
    method: 'paired percentile bootstrap over tasks; exact McNemar test on the top-k hits',
    prng: 'mulberry32',
    seed: BOOTSTRAP.seed,
    resamples: BOOTSTRAP.resamples,
    level: BOOTSTRAP.level,
    n_paired: paired.length,
    n_rc_paired: rcPaired.length,
    only_in_a: [...gradedA.keys()].filter((key) => !gradedB.has(key)),
    only_in_b: [...gradedB.keys()].filter((key) => !gradedA.has(key)),
    metrics: sets.flatMap(({ prefix, pairs }) => pairedMetrics(prefix, pairs)),
    differing: differences(sets),
  };
}

interface Pair {
  key: string;
  a: Nullable<LocalizationMetrics>;
  b: Nullable<LocalizationMetrics>;
}

function pairs(a: GradedRun, b: GradedRun, read: (metrics: TaskMetrics) => Nullable<LocalizationMetrics>): Pair[] {
  return byKey([...a].flatMap(([key, metrics]) => (b.has(key) ? [{ key, a: read(metrics), b: read(b.get(key) as TaskMetrics) }] : [])));
}

function pairedMetrics(prefix: string, pairs: readonly Pair[]): PairedMetric[] {
  const rows = pairs.map((pair) => ({ a: columnValues(pair.a), b: columnValues(pair.b) }));
  const differenceRows = rows.map((row) => row.b.map((value, column) => value - row.a[column]));
  const intervals = bootstrapMeanIntervals(differenceRows, METRIC_COLUMNS.length, BOOTSTRAP);
  const mean = (values: number[]): number => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);
  return METRIC_COLUMNS.map((column, c) => {
    const [aMean, bMean] = [mean(rows.map((row) => row.a[c])), mean(rows.map((row) => row.b[c]))];
    return {
      metric: `${prefix}${column.name}`,
      n: pairs.length,
      a_mean: aMean,
      b_mean: bMean,
      difference: mean(differenceRows.map((row) => row[c])),
      interval: intervals[c],
      mcnemar: column.k === null ? null : hitsTest(rows.map((row) => [row.a[c] > 0, row.b[c] > 0])),
    };
  });
}

function hitsTest(hits: [boolean, boolean][]): McNemarTest {
  return mcnemarExact(hits.filter(([a, b]) => a && !b).length, hits.filter(([a, b]) => !a && b).length);
}

/** The tasks whose scores differ in any column, in key order, each with its changes (parity set, then root cause). */
function differences(sets: readonly { prefix: string; pairs: readonly Pair[] }[]): TaskDifference[] {
  const byTask = new Map<string, TaskDifference['changes']>();
  for (const { prefix, pairs } of sets) {
    for (const pair of pairs) {
      const [a, b] = [columnValues(pair.a), columnValues(pair.b)];
      const changes = METRIC_COLUMNS.flatMap((column, c) => (a[c] === b[c] ? [] : [{ metric: `${prefix}${column.name}`, a: a[c], b: b[c] }]));
      if (changes.length > 0) byTask.set(pair.key, [...(byTask.get(pair.key) ?? []), ...changes]);
    }
  }
  return byKey([...byTask].map(([key, changes]) => ({ key, changes }))).map(({ key, changes }) => ({ task: key, changes }));
}
