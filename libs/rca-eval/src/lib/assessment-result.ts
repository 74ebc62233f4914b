// The `Result` artifact of an assessment: means over the requested tasks and every task's record.
import { TOP_KS, type LocalizationMetrics, type TopK } from './localization-metrics';
import { topKOf, type TaskMetrics } from './task-scoring';

export const RESULT_DOMAIN = 'arvo_rca';

export interface AssessmentResult {
  domain: typeof RESULT_DOMAIN;
  /** Tasks requested. */
  n_tasks: number;
  /** Tasks whose loc.json was read and scored. */
  n_scored: number;
  /** Tasks whose fix has no code hunk: reported, but not part of the means. */
  n_without_ground_truth: number;
  /** Seconds the whole assessment took. */
  time_used: number;
  file_acc_mean: number;
  func_recall_mean: number;
  func_precision_mean: number;
  line_iou_mean: number;
  line_proximity_mean: number;
  func_topk_recall_mean: TopK;
  line_topk_recall_mean: TopK;
  task_metrics: Record<string, TaskMetrics>;
}

export interface TaskRecord {
  taskId: string;
  metrics: TaskMetrics;
}

type ScalarMetric = Exclude<keyof LocalizationMetrics, 'func_topk_recall' | 'line_topk_recall'>;

/**
 * Means over all requested tasks, where a task without submission, with an unreadable one, that failed or
 * that a shutdown interrupted counts as zero (the original dropped those, flattering agents that crash).
 * Tasks without ground truth are neither perfect nor zero, so they are left out. A task id requested
 * twice keeps both records, the second as `<id>#2`.
 */
export function aggregateResults(tasks: readonly TaskRecord[], timeUsedSeconds: number): AssessmentResult {
  const graded = tasks.map((task) => task.metrics).filter((metrics) => metrics.status !== 'no_ground_truth');
  const mean = (metric: ScalarMetric): number => average(graded.map((metrics) => metrics[metric] ?? 0));
  const topKMean = (metric: 'func_topk_recall' | 'line_topk_recall'): TopK => {
    const means = topKOf(0);
    for (const k of TOP_KS) means[`${k}`] = average(graded.map((metrics) => metrics[metric]?.[`${k}`] ?? 0));
    return means;
  };
  return {
    domain: RESULT_DOMAIN,
    n_tasks: tasks.length,
    n_scored: tasks.filter((task) => task.metrics.status === 'scored').length,
    n_without_ground_truth: tasks.length - graded.length,
    time_used: Math.round(timeUsedSeconds * 10) / 10,
    file_acc_mean: mean('file_acc'),
    func_recall_mean: mean('func_recall'),
    func_precision_mean: mean('func_precision'),
    line_iou_mean: mean('line_iou'),
    line_proximity_mean: mean('line_proximity'),
    func_topk_recall_mean: topKMean('func_topk_recall'),
    line_topk_recall_mean: topKMean('line_topk_recall'),
    task_metrics: byTaskId(tasks),
  };
}

function byTaskId(tasks: readonly TaskRecord[]): Record<string, TaskMetrics> {
  const records: Record<string, TaskMetrics> = {};
  for (const { taskId, metrics } of tasks) {
    let key = taskId;
    for (let copy = 2; key in records; copy++) key = `${taskId}#${copy}`;
    records[key] = metrics;
  }
  return records;
}

function average(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
