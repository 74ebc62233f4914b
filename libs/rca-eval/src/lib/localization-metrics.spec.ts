import type { LineSpan, Prediction } from '@arvo-rca/loc-json';
import type { GroundTruth, GroundTruthSpan } from './ground-truth';
import { evaluateLocalization, iou, proximity, type LocalizationReport } from './localization-metrics';
import { everyMetric } from './metrics.testing';

const span = (start: number, end: number): LineSpan => ({ start, end });
const truthSpan = (file: string, fn: string, vulSpan: LineSpan | null, fixSpan: LineSpan | null): GroundTruthSpan => ({
  file,
  function: fn,
  vulSpan,
  fixSpan,
  change: vulSpan ? 'modified' : 'added',
});
const predict = (file: string, fn: string, lines: LineSpan | null): Prediction => ({ file, function: fn, span: lines });
const truthOf = (spans: GroundTruthSpan[], project: string | null = null): GroundTruth => ({
  spans,
  project,
  notes: [],
});

function evaluate(predictions: Prediction[], truth: GroundTruth): LocalizationReport {
  const report = evaluateLocalization(predictions, truth);
  if (!report) throw new Error('expected a report');
  return report;
}

describe('iou and proximity of inclusive line ranges', () => {
  it('computes IoU over inclusive ranges', () => {
    expect(iou(span(12, 21), span(10, 19))).toBeCloseTo(8 / 12); // overlap 12-19 = 8, union 10+10-8
    expect(iou(span(5, 5), span(5, 5))).toBe(1);
    expect(iou(span(1, 4), span(5, 9))).toBe(0); // adjacent ranges share no line
    expect(iou(null, span(1, 2))).toBe(0);
  });

  it('computes proximity from the centre distance over the mean length', () => {
    expect(proximity(span(40, 49), span(50, 53))).toBeCloseTo(Math.exp(-(7 / 7) / 2)); // centres 44.5, 51.5
    expect(proximity(span(3, 3), span(1, 5))).toBe(1); // same centre
    expect(proximity(span(1, 1), span(3, 3))).toBeCloseTo(Math.exp(-(2 / 1) / 2)); // mean length 1
    expect(proximity(span(1, 1), null)).toBe(0);
  });
});

describe('evaluateLocalization', () => {
  // Three hunks in two files; four ranked predictions (worked through in the comments below).
  const truth = truthOf(
    [
      truthSpan('src/a.c', 'alpha', span(10, 19), span(10, 21)),
      truthSpan('src/a.c', 'beta', span(50, 53), span(52, 55)),
      truthSpan('include/b.h', '', span(1, 4), span(1, 5)),
    ],
    'proj',
  );
  const predictions = [
    predict('/workspace/src-vul/proj/src/a.c', 'alpha', span(12, 21)), // prefixed path of a.c
    predict('a.c', 'gamma', span(40, 49)), // base name only
    predict('src/c.c', 'beta', span(50, 53)), // right function and lines, wrong file
    predict('b.h', '', span(3, 3)),
  ];

  it('scores every span against the file-matching predictions', () => {
    const { perSpan } = evaluate(predictions, truth);
    expect(perSpan).toEqual([
      // a.c alpha: #0 vs fix 10-21 overlaps 12-21 (10 lines) of a union of 12 -> 5/6; vs vul only 8/12.
      // Proximity of #0 vs fix: centres 16.5 and 15.5, mean length 11 -> exp(-(1/11)/2).
      {
        fileMatched: true,
        functionMatched: true,
        bestIou: 10 / 12,
        bestIouPrediction: 0,
        bestProximity: expect.closeTo(Math.exp(-1 / 22), 12),
      },
      // a.c beta: nothing overlaps; #1 vs vul: centres 44.5 and 51.5, mean length 7 -> exp(-1/2).
      // #2 names beta on the right lines, but in c.c: it is not considered.
      {
        fileMatched: true,
        functionMatched: false,
        bestIou: 0,
        bestIouPrediction: null,
        bestProximity: expect.closeTo(Math.exp(-1 / 2), 12),
      },
      // b.h: #3 (line 3) vs vul 1-4 -> 1/4, vs fix 1-5 -> 1/5; proximity vs fix: same centre -> 1.
      { fileMatched: true, functionMatched: false, bestIou: 1 / 4, bestIouPrediction: 3, bestProximity: 1 },
    ]);
  });

  it('averages the spans into the task metrics', () => {
    const { metrics } = evaluate(predictions, truth);
    expect(metrics.file_acc).toBe(1);
    expect(metrics.func_recall).toBeCloseTo(1 / 3); // alpha only; b.h's function is unknown ('')
    expect(metrics.func_precision).toBeCloseTo(1 / 4); // #0 only: gamma is no span's, #2 is in the wrong file
    expect(metrics.line_iou).toBeCloseTo((5 / 6 + 0 + 1 / 4) / 3);
    expect(metrics.line_proximity).toBeCloseTo((Math.exp(-1 / 22) + Math.exp(-1 / 2) + 1) / 3);
  });

  it('counts top-k hits with only the k best-ranked predictions', () => {
    const { metrics } = evaluate(predictions, truth);
    // function: top 1 and 3 find alpha; the 4th finds b.h with both functions empty.
    expect(metrics.func_topk_recall).toEqual({ '1': 1 / 3, '3': 1 / 3, '5': 2 / 3 });
    // lines: only alpha's 5/6 reaches 0.5; b.h's 1/4 does not.
    expect(metrics.line_topk_recall).toEqual({ '1': 1 / 3, '3': 1 / 3, '5': 1 / 3 });
  });

  it('credits predictions in files without ground truth nothing, but counts them for precision', () => {
    const single = truthOf([truthSpan('src/a.c', 'f', span(10, 20), span(10, 20))]);
    const elsewhere = predict('src/z.c', 'f', span(10, 20));
    const { metrics } = evaluate([elsewhere, predict('src/a.c', 'f', span(10, 20))], single);
    expect(metrics).toEqual({
      file_acc: 1,
      func_recall: 1,
      func_precision: 1 / 2,
      line_iou: 1,
      line_proximity: 1,
      func_topk_recall: { '1': 0, '3': 1, '5': 1 },
      line_topk_recall: { '1': 0, '3': 1, '5': 1 },
    });
  });

  it('treats empty function names as no function for recall and precision, but as equal for top-k', () => {
    const unknown = truthOf([truthSpan('a.c', '', span(1, 2), span(1, 2))]);
    const both = evaluate([predict('a.c', '', span(1, 2))], unknown).metrics;
    expect([both.func_recall, both.func_precision, both.func_topk_recall['1']]).toEqual([0, 0, 1]);
    const named = evaluate([predict('a.c', 'f', span(1, 2))], unknown).metrics;
    expect([named.func_recall, named.func_precision, named.func_topk_recall['1']]).toEqual([0, 0, 0]);
    const known = truthOf([truthSpan('a.c', 'f', span(1, 2), span(1, 2))]);
    expect(evaluate([predict('a.c', '', span(1, 2))], known).metrics.func_topk_recall['1']).toBe(0);
  });

  it('compares function names exactly, case included', () => {
    const known = truthOf([truthSpan('a.c', 'Parse_Header', span(1, 2), span(1, 2))]);
    expect(evaluate([predict('a.c', 'parse_header', span(1, 2))], known).metrics.func_recall).toBe(0);
    expect(evaluate([predict('a.c', 'parse_header()', span(1, 2))], known).metrics.func_recall).toBe(0);
  });

  it('credits the better-ranked prediction when two reach the same IoU', () => {
    const single = truthOf([truthSpan('a.c', 'f', span(10, 19), span(10, 19))]);
    const tied = [predict('b.c', 'f', span(10, 19)), predict('a.c', 'g', span(5, 14)), predict('a.c', 'f', span(15, 24))];
    const report = evaluate(tied, single);
    // #1 and #2 both overlap 5 of 15 lines: 1/3 each; #1 ranks first.
    expect(report.perSpan[0]).toMatchObject({ bestIou: 5 / 15, bestIouPrediction: 1 });
    expect(report.metrics.func_topk_recall).toEqual({ '1': 0, '3': 1, '5': 1 });
  });

  it('scores a duplicated prediction once per span, at its best rank', () => {
    const single = truthOf([truthSpan('a.c', 'f', span(10, 19), span(10, 19))]);
    const same = predict('a.c', 'f', span(10, 19));
    const report = evaluate([same, predict('x.c', 'g', span(1, 1)), same], single);
    expect(report.perSpan[0]).toMatchObject({ bestIou: 1, bestIouPrediction: 0 });
    expect(report.metrics.func_precision).toBeCloseTo(2 / 3);
  });

  it('gives a prediction without lines file and function credit but no line credit', () => {
    const single = truthOf([truthSpan('a.c', 'f', span(10, 19), span(10, 19))]);
    const { metrics } = evaluate([predict('a.c', 'f', null)], single);
    expect([metrics.file_acc, metrics.func_recall, metrics.line_iou, metrics.line_proximity]).toEqual([1, 1, 0, 0]);
  });

  it('compares a new file only with its fixed-file span', () => {
    const added = truthOf([truthSpan('src/new.h', '', null, span(1, 10))]);
    const { metrics } = evaluate([predict('new.h', '', span(1, 5))], added);
    expect(metrics.line_iou).toBeCloseTo(5 / 10);
    expect(metrics.line_topk_recall['1']).toBe(1);
  });

  it('scores no predictions as zero', () => {
    const single = truthOf([truthSpan('a.c', 'f', span(1, 2), span(1, 2))]);
    expect(evaluate([], single).metrics).toEqual(everyMetric(0));
  });

  it('has no report for a task without ground-truth spans', () => {
    expect(evaluateLocalization([predict('a.c', 'f', span(1, 2))], truthOf([]))).toBeNull();
  });
});
