// One task's metrics as the judge gives them and the Result keeps them: the metric shapes and the statuses.
import type { SolverExit } from './solver-exit';
import { usageBy, type Nullable, type SolverUsage } from './solver-usage';

export const TOP_KS = [1, 3, 5] as const;
export type TopK = Record<`${(typeof TOP_KS)[number]}`, number>;

/** Per-task metrics, named as in the Result JSON. */
export interface LocalizationMetrics {
  file_acc: number;
  func_recall: number;
  func_precision: number;
  line_iou: number;
  line_proximity: number;
  func_topk_recall: TopK;
  line_topk_recall: TopK;
}

/** The same metrics against the root-cause spans, under `rc_` names. */
type RootCauseMetrics = { [K in keyof LocalizationMetrics as `rc_${K}`]: LocalizationMetrics[K] };

/**
 * `scored`: loc.json was read and scored. `no_submission`: no loc.json. `invalid_submission`: loc.json could
 * not be read at all. `failed`: the task broke before scoring. `disk_limit_exceeded`: the solver's writes
 * passed the task's disk limit, which ended it. Those count as zero in the means. `interrupted`: the green
 * agent shut down before the task ended; not the solver's doing, so the task can be run again later, and
 * until then it counts as zero too.
 * `no_ground_truth`: the fix has no code hunk, so nothing can be scored; left out of the means.
 */
export const TASK_STATUSES = ['scored', 'no_submission', 'invalid_submission', 'failed', 'interrupted', 'disk_limit_exceeded', 'no_ground_truth'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/**
 * A task's entry in `task_metrics`: the original-parity metrics, null only for `no_ground_truth`; and the
 * root-cause ones (`rc_*`, against the `rc_n_gt` root-cause spans), null also when the fix changes only
 * tests, harnesses and new files.
 */
export type TaskMetrics = {
  status: TaskStatus;
  /** Why a task was not scored normally, or what the lenient reading had to overlook. */
  detail?: string;
  /** The code of the error that ended a `failed` or `interrupted` task (`IMAGE_PULL_FAILED`, ...), when it had one. */
  error_code?: string;
  /**
   * The image that error was about (`IMAGE_PULL_*`): the one the green agent tried, by its own templates
   * (ARVO_IMAGE_TEMPLATE), which a runner elsewhere cannot know.
   */
  image?: string;
  n_gt: number;
  n_pred: number;
  rc_n_gt: number;
  /** How the solver said its run ended (`ModelError`, `Submitted`, ...), when it said so. */
  solver_exit_status?: string;
  /** The solver's reason for that exit, when it gave one. */
  solver_reason?: string;
} & Nullable<LocalizationMetrics> &
  Nullable<RootCauseMetrics> &
  Partial<Nullable<SolverUsage>>;

/** What a task's record keeps of the error that ended it, beside its message in `detail`. */
export type TaskErrorFields = Pick<TaskMetrics, 'error_code' | 'image'>;

export function topKOf(value: number): TopK {
  return Object.fromEntries(TOP_KS.map((k) => [String(k), value])) as TopK;
}

/** The metrics under their `rc_` names. */
export function asRootCause(metrics: Nullable<LocalizationMetrics>): Nullable<RootCauseMetrics> {
  return {
    rc_file_acc: metrics.file_acc,
    rc_func_recall: metrics.func_recall,
    rc_func_precision: metrics.func_precision,
    rc_line_iou: metrics.line_iou,
    rc_line_proximity: metrics.line_proximity,
    rc_func_topk_recall: metrics.func_topk_recall,
    rc_line_topk_recall: metrics.line_topk_recall,
  };
}

/** The `rc_` metrics of a record under their plain names; null each in a record written before they existed. */
export function fromRootCause(record: Partial<Nullable<RootCauseMetrics>>): Nullable<LocalizationMetrics> {
  return {
    file_acc: record.rc_file_acc ?? null,
    func_recall: record.rc_func_recall ?? null,
    func_precision: record.rc_func_precision ?? null,
    line_iou: record.rc_line_iou ?? null,
    line_proximity: record.rc_line_proximity ?? null,
    func_topk_recall: record.rc_func_topk_recall ?? null,
    line_topk_recall: record.rc_line_topk_recall ?? null,
  };
}

/** The metrics with what the solver said of its own run (how it ended, what it cost), beside what the judge made of it. */
export function withSolverExit(metrics: TaskMetrics, exit: SolverExit | undefined): TaskMetrics {
  if (!exit) return metrics;
  const { usage } = exit;
  return {
    ...metrics,
    solver_exit_status: exit.exitStatus,
    ...(exit.reason ? { solver_reason: exit.reason } : {}),
    // The usage fields alone, in CyberGym's order (a solver's report may carry more).
    ...(usage ? usageBy((field) => usage[field]) : {}),
  };
}
