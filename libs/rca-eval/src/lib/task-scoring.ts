// One task's record in the Result: its metrics, or why it has none worth counting.
import { readSubmission, type Prediction, type SubmissionReading } from '@arvo-rca/loc-json';
import { asRootCause, metricsAt, noMetrics, type LocalizationMetrics, type TaskErrorFields, type TaskMetrics, type TaskStatus } from '@arvo-rca/results';
import type { GroundTruth } from './ground-truth';
import { evaluateLocalization } from './localization-metrics';
import { rootCauseTruth } from './root-cause';

/** Scores a task's `loc.json` text (null when the file does not exist) against its ground truth. */
export function scoreSubmission(submission: string | null, truth: GroundTruth): TaskMetrics {
  return scoreReading(submission === null ? null : readSubmission(submission), truth);
}

/** A `loc.json` that is there but was not read (a FIFO, a folder, a link, too large), and why, in the sandbox's words. */
export interface SubmissionRefusal {
  kind: 'refused';
  reason: string;
}

/**
 * Scores a task's `loc.json` as the judge read it against its ground truth: null when the file does not
 * exist (no submission), a refusal when it exists but could not be read (an invalid one, saying why).
 */
export function scoreReading(reading: SubmissionReading | SubmissionRefusal | null, truth: GroundTruth): TaskMetrics {
  const nGt = truth.spans.length;
  const nPred = reading?.kind === 'read' ? reading.predictions.length : 0;
  if (nGt === 0) {
    const detail = 'the fix changes no code file';
    return { ...noMetrics(), status: 'no_ground_truth', detail, n_gt: 0, n_pred: nPred, rc_n_gt: 0, ...asRootCause(noMetrics()) };
  }
  if (reading === null) return zeroTask('no_submission', 'no loc.json was written', truth);
  if (reading.kind === 'unreadable') return zeroTask('invalid_submission', `loc.json is ${reading.reason}`, truth);
  if (reading.kind === 'refused') return zeroTask('invalid_submission', `loc.json could not be read: ${reading.reason}`, truth);
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
  return evaluateLocalization(predictions, truth)?.metrics ?? metricsAt(0);
}

/** The record of a task that broke before it could be scored: zero, with the reason and what it keeps of the error (its code, its image). */
export function failedTask(reason: string, truth: GroundTruth | null = null, error: TaskErrorFields = {}): TaskMetrics {
  return withError(zeroTask('failed', reason, truth), error);
}

/** The record of a task cut short by the green agent's shutdown: zero, with the reason (and the error's fields, when known), to be run again. */
export function interruptedTask(reason: string, truth: GroundTruth | null = null, error: TaskErrorFields = {}): TaskMetrics {
  return withError(zeroTask('interrupted', reason, truth), error);
}

/** The error's code and image beside the reason, right after it; each absent when the error had none. */
function withError(metrics: TaskMetrics, error: TaskErrorFields): TaskMetrics {
  const { status, detail, ...rest } = metrics;
  const code = error.error_code === undefined ? {} : { error_code: error.error_code };
  const image = error.image === undefined ? {} : { image: error.image };
  return { status, detail, ...code, ...image, ...rest };
}

/** The record of a task its solver's writes ended at the disk limit: zero, with what was written. */
export function diskLimitTask(detail: string, truth: GroundTruth | null = null): TaskMetrics {
  return zeroTask('disk_limit_exceeded', detail, truth);
}

/**
 * Zero on both sets, but for a fix known to have no root-cause span, whose root-cause metrics are null. A
 * task that broke before its ground truth was known (none given) has zero spans of either kind.
 */
function zeroTask(status: TaskStatus, detail: string, truth: GroundTruth | null): TaskMetrics {
  const rcNGt = truth ? rootCauseTruth(truth).spans.length : 0;
  const rcMetrics = truth && rcNGt === 0 ? noMetrics() : metricsAt(0);
  return { status, detail, n_gt: truth?.spans.length ?? 0, n_pred: 0, ...metricsAt(0), rc_n_gt: rcNGt, ...asRootCause(rcMetrics) };
}
