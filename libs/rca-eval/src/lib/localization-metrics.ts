// The judge's metrics for one task: ranked predictions against the ground-truth spans.
import type { LineSpan, Prediction } from '@arvo-rca/loc-json';
import { filesMatch } from './file-match';
import { TOP_KS, type LocalizationMetrics, type TopK } from '@arvo-rca/results';
import type { GroundTruth, GroundTruthSpan } from './ground-truth';

/** A prediction's lines "hit" a span when their IoU reaches this. */
const LINE_IOU_THRESHOLD = 0.5;

/** How one ground-truth span was met, for logs and for explaining a score. */
interface SpanScore {
  fileMatched: boolean;
  functionMatched: boolean;
  bestIou: number;
  /** Rank (0-based) of the first prediction reaching `bestIou`: the better-ranked one wins a tie. */
  bestIouPrediction: number | null;
  bestProximity: number;
}

type Matcher = (prediction: Prediction, span: GroundTruthSpan) => boolean;

export interface LocalizationReport {
  metrics: LocalizationMetrics;
  perSpan: SpanScore[];
}

/**
 * Scores predictions (in rank order) against ground truth; null when there is no ground-truth span, which
 * is neither a perfect nor a zero score. A prediction's lines are compared with both the vulnerable-file
 * and the fixed-file span of each hunk and the better comparison is kept.
 */
export function evaluateLocalization(predictions: Prediction[], truth: GroundTruth): LocalizationReport | null {
  const spans = truth.spans;
  if (spans.length === 0) return null;
  const sameFile: Matcher = (prediction, span) => filesMatch(prediction.file, span.file, truth.project);
  const sameFunction: Matcher = (prediction, span) => span.function !== '' && prediction.function === span.function && sameFile(prediction, span);

  const perSpan = spans.map((span) => scoreSpan(span, predictions, sameFile, sameFunction));
  const topK = (hit: Matcher): TopK =>
    Object.fromEntries(TOP_KS.map((k) => [String(k), share(spans, (span) => predictions.slice(0, k).some((p) => hit(p, span)))])) as TopK;

  const metrics: LocalizationMetrics = {
    file_acc: mean(perSpan.map((score) => (score.fileMatched ? 1 : 0))),
    func_recall: mean(perSpan.map((score) => (score.functionMatched ? 1 : 0))),
    func_precision: share(predictions, (p) => spans.some((span) => sameFunction(p, span))),
    line_iou: mean(perSpan.map((score) => score.bestIou)),
    line_proximity: mean(perSpan.map((score) => score.bestProximity)),
    // "Same function" includes both being empty, as in the original judge.
    func_topk_recall: topK((p, span) => sameFile(p, span) && p.function === span.function),
    line_topk_recall: topK((p, span) => sameFile(p, span) && spanIou(p.span, span) >= LINE_IOU_THRESHOLD),
  };
  return { metrics, perSpan };
}

function scoreSpan(span: GroundTruthSpan, predictions: Prediction[], sameFile: Matcher, sameFunction: Matcher): SpanScore {
  let bestIou = 0;
  let bestIouPrediction: number | null = null;
  predictions.forEach((prediction, rank) => {
    const iou = sameFile(prediction, span) ? spanIou(prediction.span, span) : 0;
    if (iou > bestIou) [bestIou, bestIouPrediction] = [iou, rank];
  });
  const inFile = predictions.filter((prediction) => sameFile(prediction, span));
  return {
    fileMatched: inFile.length > 0,
    functionMatched: inFile.some((prediction) => sameFunction(prediction, span)),
    bestIou,
    bestIouPrediction,
    bestProximity: Math.max(0, ...inFile.map((prediction) => spanProximity(prediction.span, span))),
  };
}

/** The better IoU of the prediction against the hunk's vulnerable-file and fixed-file spans. */
export function spanIou(predicted: LineSpan | null, span: GroundTruthSpan): number {
  return Math.max(iou(predicted, span.vulSpan), iou(predicted, span.fixSpan));
}

export function spanProximity(predicted: LineSpan | null, span: GroundTruthSpan): number {
  return Math.max(proximity(predicted, span.vulSpan), proximity(predicted, span.fixSpan));
}

/** Intersection over union of inclusive line ranges. */
export function iou(a: LineSpan | null, b: LineSpan | null): number {
  if (!a || !b) return 0;
  const intersection = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start) + 1);
  if (intersection === 0) return 0;
  const union = length(a) + length(b) - intersection;
  return union > 0 ? intersection / union : 0;
}

/** `exp(-(|centre distance| / max(mean length, 1)) / 2)`: partial credit for near misses in the right file. */
export function proximity(a: LineSpan | null, b: LineSpan | null): number {
  if (!a || !b) return 0;
  const distance = Math.abs((a.start + a.end) / 2 - (b.start + b.end) / 2);
  const meanLength = (length(a) + length(b)) / 2;
  return Math.exp(-(distance / Math.max(meanLength, 1)) / 2);
}

function length(span: LineSpan): number {
  return span.end - span.start + 1;
}

function mean(values: number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
}

function share<T>(items: readonly T[], counts: (item: T) => boolean): number {
  return items.length === 0 ? 0 : items.filter(counts).length / items.length;
}
