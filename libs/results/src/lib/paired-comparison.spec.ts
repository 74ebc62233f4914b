import { referencePairedIntervals } from '@arvo-rca/stats/testing';
import { pairedComparison } from './paired-comparison';
import { BOOTSTRAP } from './result-confidence';
import { asRootCause, noMetrics, type LocalizationMetrics, type TaskMetrics, type TaskStatus } from './task-metrics';

/** A task's metrics: its line IoU and file accuracy as given, the top-1 hits (func, line) as given, the rest following from them. */
function task(lineIou: number, fileAcc: number, hits: [number, number] = [0, 0], status: TaskStatus = 'scored'): TaskMetrics {
  const scores: LocalizationMetrics = {
    file_acc: fileAcc,
    func_recall: hits[0],
    func_precision: hits[0] / 3,
    line_iou: lineIou,
    line_proximity: Math.sqrt(lineIou),
    func_topk_recall: { '1': hits[0], '3': Math.max(hits[0], fileAcc > 0.5 ? 1 : 0), '5': Math.max(hits[0], fileAcc > 0 ? 1 : 0) },
    line_topk_recall: { '1': hits[1], '3': hits[1], '5': Math.max(hits[1], lineIou > 0.4 ? 1 : 0) },
  };
  return { status, n_gt: 1, n_pred: 3, rc_n_gt: 1, ...scores, ...asRootCause(scores) };
}

/** The row of the README's column order: the five scalars, then func@1,3,5 and line@1,3,5. */
function row(metrics: TaskMetrics): number[] {
  const topK = (values: LocalizationMetrics['func_topk_recall'] | null): number[] => (['1', '3', '5'] as const).map((k) => values?.[k] ?? 0);
  const scalars = [metrics.file_acc, metrics.func_recall, metrics.func_precision, metrics.line_iou, metrics.line_proximity];
  return [...scalars.map((value) => value ?? 0), ...topK(metrics.func_topk_recall), ...topK(metrics.line_topk_recall)];
}

// Thirty tasks two runs both graded, B better on most; task 3 only A recorded, task 31 only B; task 32 without ground truth in both.
function runs(): { a: Map<string, TaskMetrics>; b: Map<string, TaskMetrics> } {
  const a = new Map<string, TaskMetrics>();
  const b = new Map<string, TaskMetrics>();
  for (let id = 0; id < 30; id++) {
    const key = `sample:${id}`;
    const base = (id % 5) / 5;
    a.set(key, id % 7 === 2 ? task(0, 0, [0, 0], 'failed') : task(base, base, [id % 3 === 0 ? 1 : 0, id % 4 === 0 ? 1 : 0]));
    if (id !== 3) b.set(key, task(Math.min(1, base + (id % 2) * 0.3), id % 6 === 0 ? base : 1, [id % 3 === 0 || id % 5 === 1 ? 1 : 0, id % 4 === 0 ? 1 : 0]));
  }
  b.set('sample:31', task(1, 1, [1, 1]));
  a.set('sample:32', task(0, 0, [0, 0], 'no_ground_truth'));
  b.set('sample:32', task(0, 0, [0, 0], 'no_ground_truth'));
  return { a, b };
}

describe('the paired comparison of two runs', () => {
  const { a, b } = runs();
  const comparison = pairedComparison(a, b);
  const metric = (name: string) => comparison.metrics.find((entry) => entry.metric === name);

  it('pairs the tasks both runs graded, and names those only one did', () => {
    expect(comparison).toMatchObject({ n_paired: 29, n_rc_paired: 29, only_in_a: ['sample:3'], only_in_b: ['sample:31'] });
    expect(metric('line_iou')?.n).toBe(29);
  });

  it("gives each metric's mean difference B - A with the interval the Python reference draws over the pairs sorted by key", () => {
    const keys = [...a.keys()].filter((key) => b.has(key) && key !== 'sample:32').sort();
    const reference = referencePairedIntervals(
      keys.map((key) => [row(a.get(key) as TaskMetrics), row(b.get(key) as TaskMetrics)]),
      BOOTSTRAP,
    );
    const names = ['file_acc', 'func_recall', 'func_precision', 'line_iou', 'line_proximity'];
    const topK = ['func_topk_recall', 'line_topk_recall'].flatMap((name) => ['1', '3', '5'].map((k) => `${name}[${k}]`));

    expect(comparison.metrics.map((entry) => entry.metric)).toEqual([...names, ...topK, ...[...names, ...topK].map((name) => `rc_${name}`)]);
    expect(comparison.metrics.slice(0, 11).map((entry) => entry.interval)).toEqual(reference);
    expect(comparison.metrics.slice(11).map((entry) => entry.interval)).toEqual(reference);
    const fileAcc = metric('file_acc');
    expect(fileAcc?.difference).toBeCloseTo((fileAcc?.b_mean ?? 0) - (fileAcc?.a_mean ?? 0), 12);
    expect(fileAcc?.difference).toBeGreaterThan(0.3);
    expect(fileAcc?.interval?.[0]).toBeGreaterThan(0);
  });

  it("tests the top-k hits with McNemar's exact test on the discordant tasks, and no other metric", () => {
    // func@1: B adds the tasks with id % 5 = 1 that are not multiples of 3 (1, 11, 16, 26; 6 and 21 are both runs'),
    // and A's failed tasks that B hits anyway (9 is a multiple of 3): A alone hits none.
    const func1 = metric('func_topk_recall[1]');
    const keys = [...a.keys()].filter((key) => b.has(key) && key !== 'sample:32');
    const hit = (run: Map<string, TaskMetrics>, key: string): boolean => (run.get(key)?.func_topk_recall?.['1'] ?? 0) > 0;
    const bOnly = keys.filter((key) => hit(b, key) && !hit(a, key)).length;
    const aOnly = keys.filter((key) => hit(a, key) && !hit(b, key)).length;

    expect([aOnly, bOnly]).toEqual([0, 5]);
    expect(func1?.mcnemar).toEqual({ a_only: 0, b_only: 5, p_value: 0.0625 });
    // line@1: the same hits, but for task 16, which failed in A.
    expect(metric('line_topk_recall[1]')?.mcnemar).toEqual({ a_only: 0, b_only: 1, p_value: 1 });
    expect(metric('line_iou')?.mcnemar).toBeNull();
  });

  it('lists the tasks whose scores differ, in key order, with each change', () => {
    const keys = comparison.differing.map((entry) => entry.task);

    expect(keys).toEqual([...keys].sort());
    expect(keys).not.toContain('sample:3');
    expect(comparison.differing.find((entry) => entry.task === 'sample:1')?.changes).toContainEqual({ metric: 'line_iou', a: 0.2, b: 0.5 });
    // Task 0: both runs gave the same answers.
    expect(keys).not.toContain('sample:0');
  });

  it('is the same whatever order the runs recorded their tasks in', () => {
    const reversed = (run: Map<string, TaskMetrics>) => new Map([...run].reverse());

    expect(pairedComparison(reversed(a), reversed(b))).toEqual(comparison);
  });

  it('leaves a task out of the root-cause metrics when one run has no root-cause spans for it', () => {
    const withoutRootCause = new Map(b);
    const none = noMetrics();
    withoutRootCause.set('sample:4', { ...(b.get('sample:4') as TaskMetrics), rc_n_gt: 0, ...asRootCause(none) });

    const rc = pairedComparison(a, withoutRootCause);
    expect(rc).toMatchObject({ n_paired: 29, n_rc_paired: 28 });
    expect(rc.metrics.find((entry) => entry.metric === 'rc_line_iou')?.n).toBe(28);
  });
});

describe('a task that failed in one run', () => {
  it('counts as zero there, as in the Result, even when its record holds no metrics at all', () => {
    const none = noMetrics();
    const failed: TaskMetrics = { status: 'failed', n_gt: 0, n_pred: 0, rc_n_gt: 0, ...none, ...asRootCause(task(0, 0)) };
    const comparison = pairedComparison(new Map([['sample:1', failed]]), new Map([['sample:1', task(1, 1, [1, 1])]]));

    expect(comparison.n_paired).toBe(1);
    expect(comparison.metrics.find((entry) => entry.metric === 'func_topk_recall[1]')).toMatchObject({ a_mean: 0, b_mean: 1, difference: 1 });
    expect(comparison.differing[0].changes).toContainEqual({ metric: 'line_iou', a: 0, b: 1 });
  });
});
