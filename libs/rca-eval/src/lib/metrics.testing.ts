// What the scoring specs expect, spelled once: one span of ground truth, every metric at one value, and the
// root cause's names for the same figures.
import type { GroundTruthSpan } from './ground-truth';

const SCALAR_METRICS = ['file_acc', 'func_recall', 'func_precision', 'line_iou', 'line_proximity'] as const;
const TOP_K_METRICS = ['func_topk_recall', 'line_topk_recall'] as const;

/** A span the fix modifies, the same lines on both sides. */
export function modifiedSpan(file: string, fn: string, start: number, end: number): GroundTruthSpan {
  return { file, function: fn, vulSpan: { start, end }, fixSpan: { start, end }, change: 'modified' };
}

/** Every localization metric at `value`: the top-k recalls at it for k = 1, 3 and 5, or null when it is null. */
export function everyMetric(value: number | null): Record<string, unknown> {
  const topK = value === null ? null : { '1': value, '3': value, '5': value };
  return Object.fromEntries([...SCALAR_METRICS.map((name) => [name, value]), ...TOP_K_METRICS.map((name) => [name, topK])]);
}

/** The same figures under the root cause's names (`rc_` before each). */
export function rootCauseNamed(figures: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(figures).map(([name, value]) => [`rc_${name}`, value]));
}
