import { referenceIntervals } from '@arvo-rca/stats/testing';
import { aggregateResults, type ResultInput } from './assessment-result';
import { BOOTSTRAP } from './result-confidence';
import { failedMetrics } from './task-record.testing';
import { asRootCause, noMetrics, type LocalizationMetrics, type TaskMetrics, type TaskStatus } from './task-metrics';

/** A task's metrics with its own values: shares for the scalars, 0/1 hits for the top k (with a few 0.5s, as a two-span fix gives). */
function metricsOf(index: number, status: TaskStatus = 'scored'): TaskMetrics {
  const share = (step: number): number => ((index * step) % 9) / 8;
  const hit = (k: number): number => (index % (k + 2) === 0 ? 0 : index % 11 === 5 ? 0.5 : 1);
  const scores: LocalizationMetrics = {
    file_acc: share(5),
    func_recall: share(7),
    func_precision: share(2),
    line_iou: share(4) * 0.9,
    line_proximity: share(3) ** 2,
    func_topk_recall: { '1': hit(1), '3': hit(3), '5': hit(5) },
    line_topk_recall: { '1': hit(1) * (index % 3 === 0 ? 0 : 1), '3': hit(3), '5': hit(5) },
  };
  // Every fourth task's fix has a test hunk: its root-cause scores differ from the parity ones.
  const rootCause = index % 4 === 1 ? { ...scores, file_acc: 1, line_iou: share(6) } : scores;
  return { status, n_gt: 2, n_pred: 3, rc_n_gt: 1, ...scores, ...asRootCause(rootCause) };
}

// A task that failed before it was scored, as the judge records one (rca-eval's failedTask): zero everywhere.
const failed = failedMetrics();

/** 40 tasks as a run records them: most scored, some that failed (zero), two without ground truth, one from before the rc_ metrics. */
function runTasks(): ResultInput[] {
  return Array.from({ length: 40 }, (_, index) => {
    const task_id = `arvo:${1000 + ((index * 17) % 40)}`;
    if (index % 9 === 4) return { task_id, metrics: failed };
    if (index === 7 || index === 23) return { task_id, metrics: { ...metricsOf(index, 'no_ground_truth'), ...noMetrics(), ...asRootCause(noMetrics()) } };
    if (index === 12) return { task_id, metrics: { ...metricsOf(index), ...asRootCause(noMetrics()) } };
    return { task_id, metrics: metricsOf(index) };
  });
}

/** The row of a task as the README orders the columns: the five scalars, then func@1,3,5 and line@1,3,5; null as zero. */
function row(metrics: { [K in keyof LocalizationMetrics]: LocalizationMetrics[K] | null }): number[] {
  const topK = (values: LocalizationMetrics['func_topk_recall'] | null): number[] => ['1', '3', '5'].map((k) => values?.[k as '1'] ?? 0);
  return [
    ...[metrics.file_acc, metrics.func_recall, metrics.func_precision, metrics.line_iou, metrics.line_proximity].map((value) => value ?? 0),
    ...topK(metrics.func_topk_recall),
    ...topK(metrics.line_topk_recall),
  ];
}

describe("the Result's 95% intervals", () => {
  const tasks = runTasks();
  const result = aggregateResults(tasks, 10);

  it('records how they were drawn: percentile bootstrap over tasks, mulberry32, its seed and resamples, the level', () => {
    expect(result.confidence).toMatchObject({
      method: 'percentile bootstrap over tasks',
      prng: 'mulberry32',
      seed: BOOTSTRAP.seed,
      resamples: 2000,
      level: 0.95,
      order: 'result keys sorted',
    });
  });

  it('are the intervals the Python reference draws over the graded tasks sorted by key, failed ones as zeros', () => {
    const graded = tasks.filter((task) => task.metrics.status !== 'no_ground_truth').sort((a, b) => (a.task_id < b.task_id ? -1 : 1));
    const [fileAcc, , , lineIou, , func1, func3, func5, line1] = referenceIntervals(
      graded.map((task) => row(task.metrics)),
      BOOTSTRAP,
    );
    const { intervals } = result.confidence;

    expect(graded).toHaveLength(38);
    expect(intervals.file_acc_mean).toEqual(fileAcc);
    expect(intervals.line_iou_mean).toEqual(lineIou);
    expect(intervals.func_topk_recall_mean).toEqual({ '1': func1, '3': func3, '5': func5 });
    expect(intervals.line_topk_recall_mean['1']).toEqual(line1);
  });

  it('are the root-cause ones over the tasks with root-cause metrics, under rc_ names', () => {
    const rcGraded = tasks.filter((task) => (task.metrics.rc_file_acc ?? null) !== null).sort((a, b) => (a.task_id < b.task_id ? -1 : 1));
    const reference = referenceIntervals(
      rcGraded.map((task) =>
        row({
          file_acc: task.metrics.rc_file_acc,
          func_recall: task.metrics.rc_func_recall,
          func_precision: task.metrics.rc_func_precision,
          line_iou: task.metrics.rc_line_iou,
          line_proximity: task.metrics.rc_line_proximity,
          func_topk_recall: task.metrics.rc_func_topk_recall,
          line_topk_recall: task.metrics.rc_line_topk_recall,
        }),
      ),
      BOOTSTRAP,
    );

    expect(rcGraded).toHaveLength(37);
    expect(result.confidence.intervals.rc_file_acc_mean).toEqual(reference[0]);
    expect(result.confidence.intervals.rc_line_iou_mean).toEqual(reference[3]);
    expect(result.confidence.intervals.rc_line_topk_recall_mean['5']).toEqual(reference[10]);
    expect(result.confidence.intervals.rc_line_iou_mean).not.toEqual(result.confidence.intervals.line_iou_mean);
  });

  it('hold each mean, which stays as it was', () => {
    const { intervals } = result.confidence;
    const pairs: [number, [number, number] | null][] = [
      [result.file_acc_mean, intervals.file_acc_mean],
      [result.func_recall_mean, intervals.func_recall_mean],
      [result.func_precision_mean, intervals.func_precision_mean],
      [result.line_iou_mean, intervals.line_iou_mean],
      [result.line_proximity_mean, intervals.line_proximity_mean],
      [result.func_topk_recall_mean['3'], intervals.func_topk_recall_mean['3']],
      [result.rc_line_iou_mean, intervals.rc_line_iou_mean],
    ];
    for (const [mean, interval] of pairs) {
      expect(interval?.[0]).toBeLessThan(mean);
      expect(interval?.[1]).toBeGreaterThan(mean);
    }
    const graded = tasks.filter((task) => task.metrics.status !== 'no_ground_truth');
    expect(result.file_acc_mean).toBeCloseTo(graded.reduce((sum, task) => sum + (task.metrics.file_acc ?? 0), 0) / graded.length, 12);
  });

  it('are the same whatever order the tasks were recorded in: a resumed or sharded run gets those of an uninterrupted one', () => {
    const shuffled = [...tasks].sort((a, b) => (a.metrics.func_recall ?? 0) - (b.metrics.func_recall ?? 0) || (a.task_id < b.task_id ? 1 : -1));

    expect(shuffled.map((task) => task.task_id)).not.toEqual(tasks.map((task) => task.task_id));
    expect(aggregateResults(shuffled, 10).confidence).toEqual(result.confidence);
  });

  it('are null for a mean over no task', () => {
    const none = aggregateResults([{ task_id: 'arvo:1', metrics: { ...metricsOf(1, 'no_ground_truth'), ...noMetrics(), ...asRootCause(noMetrics()) } }], 1);

    expect(none.file_acc_mean).toBe(0);
    expect(none.confidence.intervals.file_acc_mean).toBeNull();
    expect(none.confidence.intervals.rc_func_topk_recall_mean).toEqual({ '1': null, '3': null, '5': null });
  });

  it('of a run where every task failed are [0, 0]: zero is all the run showed', () => {
    const allFailed = aggregateResults(
      [1, 2, 3].map((id) => ({ task_id: `arvo:${id}`, metrics: failed })),
      1,
    );

    expect(allFailed.confidence.intervals.line_iou_mean).toEqual([0, 0]);
    expect(allFailed.confidence.intervals.rc_func_topk_recall_mean['1']).toEqual([0, 0]);
  });
});
