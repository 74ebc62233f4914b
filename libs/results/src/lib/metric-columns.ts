// The figures a run's means are taken of, one column each: the five scalar metrics, then each k of the
// two top-k metrics. The Result's intervals and the paired comparison read tasks through these.
import type { Nullable } from './solver-usage';
import { TOP_KS, type LocalizationMetrics } from './task-metrics';

export const SCALAR_METRICS = ['file_acc', 'func_recall', 'func_precision', 'line_iou', 'line_proximity'] as const;
export type ScalarMetric = (typeof SCALAR_METRICS)[number];
export const TOP_K_METRICS = ['func_topk_recall', 'line_topk_recall'] as const;
export type TopKMetric = (typeof TOP_K_METRICS)[number];
export type TopKKey = `${(typeof TOP_KS)[number]}`;

/** One column: a scalar metric, or one k of a top-k metric, named as docs/scores.md's table names it (`func_topk_recall[1]`). */
type MetricColumn = { name: ScalarMetric; metric: ScalarMetric; k: null } | { name: `${TopKMetric}[${TopKKey}]`; metric: TopKMetric; k: TopKKey };

export const METRIC_COLUMNS: readonly MetricColumn[] = [
  ...SCALAR_METRICS.map((metric) => ({ name: metric, metric, k: null }) as const),
  ...TOP_K_METRICS.flatMap((metric) => TOP_KS.map((k) => ({ name: `${metric}[${k}]`, metric, k: `${k}` }) as const)),
];

/** A task's value in the column; a null metric (a task that failed before it was scored) counts as zero, as in the means. */
function columnValue(metrics: Nullable<LocalizationMetrics>, column: MetricColumn): number {
  return column.k === null ? (metrics[column.metric] ?? 0) : (metrics[column.metric]?.[column.k] ?? 0);
}

/** Each column's value for the task, in column order. */
export function columnValues(metrics: Nullable<LocalizationMetrics>): number[] {
  return METRIC_COLUMNS.map((column) => columnValue(metrics, column));
}
