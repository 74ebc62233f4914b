// The root-cause metrics: the original's metrics against the root-cause spans, under `rc_` names.
import type { LocalizationMetrics } from './localization-metrics';
import type { Nullable } from './task-scoring';

export type RootCauseMetrics = { [K in keyof LocalizationMetrics as `rc_${K}`]: LocalizationMetrics[K] };

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
