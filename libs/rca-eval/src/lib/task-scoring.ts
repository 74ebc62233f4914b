// One task's record in the Result: its metrics, or why it has none worth counting.
import { readSubmission, type Prediction, type SubmissionReading } from '@arvo-rca/loc-json';
import type { GroundTruth } from './ground-truth';
import { evaluateLocalization, TOP_KS, type LocalizationMetrics, type TopK } from './localization-metrics';
import { rootCauseTruth } from './root-cause';
import { asRootCause, type RootCauseMetrics } from './root-cause-metrics';

/**
 * `scored`: loc.json was read and scored. `no_submission`: no loc.json. `invalid_submission`: loc.json could
 * not be read at all. `failed`: the task broke before scoring. `disk_limit_exceeded`: the solver's writes
 * passed the task's disk limit, which ended it. Those count as zero in the means. `interrupted`: the green
 * agent shut down before the task ended; not the solver's doing, so the task can be run again later, and
 * until then it counts as zero too.
 * `no_ground_truth`: the fix has no code hunk, so nothing can be scored; left out of the means.
 */
export type TaskStatus = 'scored' | 'no_submission' | 'invalid_submission' | 'failed' | 'interrupted' | 'disk_limit_exceeded' | 'no_ground_truth';

export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** What a solver's run cost, as it reported it, under CyberGym's per-task submission names. */
export interface TaskUsage {
  input_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  output_tokens: number;
  est_usd_cost: number;
  time_cost_sec: number;
  llm_requests: number;
}

export const TASK_USAGE_FIELDS = [
  'input_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'output_tokens',
  'est_usd_cost',
  'time_cost_sec',
  'llm_requests',
] as const satisfies readonly (keyof TaskUsage)[];

/**
 * A task's entry in `task_metrics`: the original-parity metrics, null only for `no_ground_truth`; and the
 * root-cause ones (`rc_*`, against the `rc_n_gt` root-cause spans), null also when the fix changes only
 * tests, harnesses and new files.
 */
export type TaskMetrics = {
  status: TaskStatus;
  /** Why a task was not scored normally, or what the lenient reading had to overlook. */
  detail?: string;
  n_gt: number;
  n_pred: number;
  rc_n_gt: number;
  /** How the solver said its run ended (`ModelError`, `Submitted`, ...), when it said so. */
  solver_exit_status?: string;
  /** The solver's reason for that exit, when it gave one. */
  solver_reason?: string;
} & Nullable<LocalizationMetrics> &
  Nullable<RootCauseMetrics> &
  Partial<Nullable<TaskUsage>>;

/** What a solver said of its own run. */
export interface SolverExitReport {
  exitStatus: string;
  reason?: string;
  usage?: TaskUsage;
}

/** Scores a task's `loc.json` text (null when the file does not exist) against its ground truth. */
export function scoreSubmission(submission: string | null, truth: GroundTruth): TaskMetrics {
  return scoreReading(submission === null ? null : readSubmission(submission), truth);
}

/** Scores a task's `loc.json` as the judge read it (null when the file does not exist) against its ground truth. */
export function scoreReading(reading: SubmissionReading | null, truth: GroundTruth): TaskMetrics {
  const nGt = truth.spans.length;
  const nPred = reading?.kind === 'read' ? reading.predictions.length : 0;
  if (nGt === 0) {
    const detail = 'the fix changes no code file';
    return { ...noMetrics(), status: 'no_ground_truth', detail, n_gt: 0, n_pred: nPred, rc_n_gt: 0, ...asRootCause(noMetrics()) };
  }
  if (reading === null) return zeroTask('no_submission', 'no loc.json was written', truth);
  if (reading.kind === 'unreadable') return zeroTask('invalid_submission', `loc.json is ${reading.reason}`, truth);
  const metrics = metricsOf(reading.predictions, truth);
  const rootCause = rootCauseTruth(truth);
  const rcMetrics = rootCause.spans.length > 0 ? metricsOf(reading.predictions, rootCause) : noMetrics();
  const detail = [...(nPred === 0 ? ['loc.json lists no location'] : []), ...reading.warnings].join('; ');
  return {
    status: 'scored',
    ...(detail ? { detail } : {}),
    n_gt: nGt,
    n_pred: nPred,
    ...metrics,
    rc_n_gt: rootCause.spans.length,
    ...asRootCause(rcMetrics),
  };
}

function metricsOf(predictions: Prediction[], truth: GroundTruth): LocalizationMetrics {
  return evaluateLocalization(predictions, truth)?.metrics ?? zeroMetrics();
}

/** The record of a task that broke before it could be scored: zero, with the reason. */
export function failedTask(reason: string, truth: GroundTruth | null = null): TaskMetrics {
  return zeroTask('failed', reason, truth);
}

/** The record of a task cut short by the green agent's shutdown: zero, with the reason, to be run again. */
export function interruptedTask(reason: string, truth: GroundTruth | null = null): TaskMetrics {
  return zeroTask('interrupted', reason, truth);
}

/** The record of a task its solver's writes ended at the disk limit: zero, with what was written. */
export function diskLimitTask(detail: string, truth: GroundTruth | null = null): TaskMetrics {
  return zeroTask('disk_limit_exceeded', detail, truth);
}

/** The record with what the solver said of its own run (how it ended, what it cost), beside what the judge made of it. */
export function withSolverExit(metrics: TaskMetrics, exit: SolverExitReport | undefined): TaskMetrics {
  if (!exit) return metrics;
  return {
    ...metrics,
    solver_exit_status: exit.exitStatus,
    ...(exit.reason ? { solver_reason: exit.reason } : {}),
    ...(exit.usage ? usageOf(exit.usage) : {}),
  };
}

/** The usage fields alone, in CyberGym's order (a solver's report may carry more). */
function usageOf(usage: TaskUsage): TaskUsage {
  const { input_tokens, cache_read_tokens, cache_creation_tokens, output_tokens, est_usd_cost, time_cost_sec, llm_requests } = usage;
  return { input_tokens, cache_read_tokens, cache_creation_tokens, output_tokens, est_usd_cost, time_cost_sec, llm_requests };
}

/**
 * Zero on both sets, but for a fix known to have no root-cause span, whose root-cause metrics are null. A
 * task that broke before its ground truth was known (none given) has zero spans of either kind.
 */
function zeroTask(status: TaskStatus, detail: string, truth: GroundTruth | null): TaskMetrics {
  const rcNGt = truth ? rootCauseTruth(truth).spans.length : 0;
  const rcMetrics = truth && rcNGt === 0 ? noMetrics() : zeroMetrics();
  return { status, detail, n_gt: truth?.spans.length ?? 0, n_pred: 0, ...zeroMetrics(), rc_n_gt: rcNGt, ...asRootCause(rcMetrics) };
}

export function zeroMetrics(): LocalizationMetrics {
  return {
    file_acc: 0,
    func_recall: 0,
    func_precision: 0,
    line_iou: 0,
    line_proximity: 0,
    func_topk_recall: topKOf(0),
    line_topk_recall: topKOf(0),
  };
}

function noMetrics(): Nullable<LocalizationMetrics> {
  return {
    file_acc: null,
    func_recall: null,
    func_precision: null,
    line_iou: null,
    line_proximity: null,
    func_topk_recall: null,
    line_topk_recall: null,
  };
}

export function topKOf(value: number): TopK {
  return Object.fromEntries(TOP_KS.map((k) => [String(k), value])) as TopK;
}
