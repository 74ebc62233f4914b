// The `Result` artifact of an assessment: means over the requested tasks and every task's entry.
import { fromRootCause, TOP_KS, topKOf, type LocalizationMetrics, type TaskMetrics, type TopK } from './task-metrics';
import type { TaskRecord } from './task-record';
import { modelsUsage, reportedUsage, type ModelUsage } from './model-usage';
import { usageBy, type Nullable, type SolverUsage } from './solver-usage';
import type { TaskDraw } from './task-draw';
import type { ScalarMetric } from './metric-columns';
import { resultConfidence, type ResultConfidence } from './result-confidence';

const RESULT_DOMAIN = 'arvo_rca';

/** Which part of the requested list a Result covers: task i of the list belongs to shard i mod count. */
export interface Shard {
  index: number;
  count: number;
}

/** The whole list: what an assessment that was not split covers. */
export const WHOLE_LIST: Shard = { index: 0, count: 1 };

/** A task's entry in the Result: the judge's metrics, the solver's usage (null each when it reported none), the green's own figures. */
export type TaskResult = TaskMetrics &
  Nullable<SolverUsage> & {
    /** Seconds the green agent spent on the task, from accepting it to cleaning up. */
    wall_time_sec: number | null;
    /** Commands the green agent ran for the solver, and how many of those did not return 0. */
    n_commands: number | null;
    n_failed_commands: number | null;
    /** Times the green agent ran the task (an infrastructure failure is run again). */
    n_attempts: number | null;
    /** The masked id the solver knew the task by, when ids were hidden from it; null when it saw the real one. */
    masked_id: string | null;
    /** The model the solver's card declared (null when it declared none, and in Results made before it was kept). */
    model: string | null;
  };

/**
 * The Result. Its usage is CyberGym's: `models`, one entry per model with each usage field's mean per task
 * over the tasks that reported usage (`n_with_usage` of them); each task's entry keeps its own figures.
 */
export interface AssessmentResult {
  domain: typeof RESULT_DOMAIN;
  shard: Shard;
  /** The tasks this Result covers, in the order they were requested. */
  task_ids: string[];
  /** How the tasks were drawn from a longer list (seed and drawn ids), or null when the request named them all. */
  draw: TaskDraw | null;
  /** Tasks requested. */
  n_tasks: number;
  /** Tasks whose loc.json was read and scored. */
  n_scored: number;
  /** Tasks whose fix has no code hunk: reported, but not part of the means. */
  n_without_ground_truth: number;
  /** Seconds the whole assessment took. */
  time_used: number;
  /** Tasks whose solver reported its usage: those the `models` means are over. */
  n_with_usage: number;
  models: ModelUsage[];
  file_acc_mean: number;
  func_recall_mean: number;
  func_precision_mean: number;
  line_iou_mean: number;
  line_proximity_mean: number;
  func_topk_recall_mean: TopK;
  line_topk_recall_mean: TopK;
  /** Tasks left out of the root-cause means: their fix has no root-cause span (or no ground truth at all). */
  rc_n_without_ground_truth: number;
  rc_file_acc_mean: number;
  rc_func_recall_mean: number;
  rc_func_precision_mean: number;
  rc_line_iou_mean: number;
  rc_line_proximity_mean: number;
  rc_func_topk_recall_mean: TopK;
  rc_line_topk_recall_mean: TopK;
  /** Every mean's 95% interval, and how they were drawn. */
  confidence: ResultConfidence;
  task_metrics: Record<string, TaskResult>;
}

/**
 * What the Result reads of a task's record: its id and metrics, the green's figures where it has them (null
 * in the Result where not), and the model the solver declared (from the assessment: one solver per run).
 */
export type ResultInput = Pick<TaskRecord, 'task_id' | 'metrics'> & Partial<Pick<TaskRecord, 'masked_id' | 'run'>> & { model?: string | null };

/**
 * Means over all requested tasks, where a task without submission, with an unreadable one, that failed or
 * that a shutdown interrupted counts as zero (the original dropped those, flattering agents that crash).
 * Tasks without ground truth are neither perfect nor zero, so they are left out. A task id requested
 * twice keeps both records, the second as `<id>#2`. The root-cause means go the same way over the tasks
 * with root-cause metrics, leaving out those whose fix has no root-cause span. Each mean has its interval
 * in `confidence`, over the same tasks.
 */
export function aggregateResults(
  tasks: readonly ResultInput[],
  timeUsedSeconds: number,
  shard: Shard = WHOLE_LIST,
  draw: TaskDraw | null = null,
): AssessmentResult {
  const entries = tasks.map(taskResult);
  const keys = resultKeys(tasks.map((task) => task.task_id));
  const graded = entries.flatMap((metrics, index) => (metrics.status !== 'no_ground_truth' ? [{ key: keys[index], metrics }] : []));
  const means = meansOf(graded.map((task) => task.metrics));
  // A record written before the root-cause metrics existed has none, and is left out of their means too.
  const rcGraded = entries.flatMap((entry, index) => {
    const metrics = fromRootCause(entry);
    return metrics.file_acc !== null ? [{ key: keys[index], metrics }] : [];
  });
  const rcMeans = meansOf(rcGraded.map((task) => task.metrics));
  return {
    domain: RESULT_DOMAIN,
    shard: { ...shard },
    task_ids: tasks.map((task) => task.task_id),
    draw,
    n_tasks: tasks.length,
    n_scored: tasks.filter((task) => task.metrics.status === 'scored').length,
    n_without_ground_truth: tasks.length - graded.length,
    time_used: tenths(timeUsedSeconds),
    n_with_usage: entries.filter(reportedUsage).length,
    models: modelsUsage(entries),
    file_acc_mean: means.file_acc,
    func_recall_mean: means.func_recall,
    func_precision_mean: means.func_precision,
    line_iou_mean: means.line_iou,
    line_proximity_mean: means.line_proximity,
    func_topk_recall_mean: means.func_topk_recall,
    line_topk_recall_mean: means.line_topk_recall,
    rc_n_without_ground_truth: tasks.length - rcGraded.length,
    rc_file_acc_mean: rcMeans.file_acc,
    rc_func_recall_mean: rcMeans.func_recall,
    rc_func_precision_mean: rcMeans.func_precision,
    rc_line_iou_mean: rcMeans.line_iou,
    rc_line_proximity_mean: rcMeans.line_proximity,
    rc_func_topk_recall_mean: rcMeans.func_topk_recall,
    rc_line_topk_recall_mean: rcMeans.line_topk_recall,
    confidence: resultConfidence(graded, rcGraded),
    task_metrics: Object.fromEntries(keys.map((key, index) => [key, entries[index]])),
  };
}

/** A task's entry in the Result, from its record: its metrics, every usage field (null when the solver reported none) and the green's figures. */
export function taskResult({ metrics, run, masked_id, model }: ResultInput): TaskResult {
  return {
    ...metrics,
    ...usageBy((field) => metrics[field] ?? null),
    wall_time_sec: run ? tenths(run.seconds) : null,
    n_commands: run ? run.commands : null,
    n_failed_commands: run ? run.failed_commands : null,
    n_attempts: run ? run.attempts : null,
    masked_id: masked_id ?? null,
    model: model ?? null,
  };
}

/** Each metric's mean over the given tasks, a null metric counting as zero. */
function meansOf(graded: readonly Nullable<LocalizationMetrics>[]): LocalizationMetrics {
  const mean = (metric: ScalarMetric): number => average(graded.map((metrics) => metrics[metric] ?? 0));
  const topKMean = (metric: 'func_topk_recall' | 'line_topk_recall'): TopK => {
    const means = topKOf(0);
    for (const k of TOP_KS) means[`${k}`] = average(graded.map((metrics) => metrics[metric]?.[`${k}`] ?? 0));
    return means;
  };
  return {
    file_acc: mean('file_acc'),
    func_recall: mean('func_recall'),
    func_precision: mean('func_precision'),
    line_iou: mean('line_iou'),
    line_proximity: mean('line_proximity'),
    func_topk_recall: topKMean('func_topk_recall'),
    line_topk_recall: topKMean('line_topk_recall'),
  };
}

/**
 * Each requested task's key in `task_metrics`, in order: its id, and `<id>#2`, `<id>#3`... for the same id
 * requested again. A task's identity in a run: a URL or a port has no part in it.
 */
export function resultKeys(taskIds: readonly string[]): string[] {
  const seen = new Set<string>();
  return taskIds.map((taskId) => {
    let key = taskId;
    for (let copy = 2; seen.has(key); copy++) key = `${taskId}#${copy}`;
    seen.add(key);
    return key;
  });
}

function tenths(seconds: number): number {
  return Math.round(seconds * 10) / 10;
}

function average(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}
