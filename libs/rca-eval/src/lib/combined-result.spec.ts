import { aggregateResults, withSolverExit, type AssessmentResult, type TaskDraw } from '@arvo-rca/results';
import { combineResults } from './combined-result';
import type { GroundTruth } from './ground-truth';
import { failedTask, scoreSubmission } from './task-scoring';

const truth: GroundTruth = {
  project: null,
  notes: [],
  spans: [{ file: 'a.c', function: 'f', vulSpan: { start: 10, end: 19 }, fixSpan: { start: 10, end: 19 }, change: 'modified' }],
};
const right = scoreSubmission('[{"file": "a.c", "function": "f", "line_start": 10, "line_end": 19}]', truth);
const usage = { input_tokens: 100, cache_read_tokens: 0, cache_creation_tokens: 0, output_tokens: 10, est_usd_cost: 0.25, time_cost_sec: 3, llm_requests: 2 };
const run = { seconds: 5, commands: 3, failed_commands: 1, attempts: 1 };
const model = 'anthropic/claude-sonnet-4-6';

// sample:1..5 split over two shards: 0 gets 1, 3, 5; 1 gets 2, 4.
function shards(): AssessmentResult[] {
  const first = aggregateResults(
    [
      { task_id: 'sample:1', model, metrics: withSolverExit(right, { exitStatus: 'Submitted', usage }), run },
      { task_id: 'sample:3', metrics: failedTask('no image') },
      { task_id: 'sample:5', metrics: right, run },
    ],
    40,
    { index: 0, count: 2 },
  );
  const second = aggregateResults(
    [
      {
        task_id: 'sample:2',
        model,
        metrics: withSolverExit(right, { exitStatus: 'Submitted', usage: { ...usage, est_usd_cost: 0.75, llm_requests: 4 } }),
        run,
      },
      { task_id: 'sample:4', metrics: scoreSubmission(null, truth), run },
    ],
    55,
    { index: 1, count: 2 },
  );
  return [second, first];
}

describe('combineResults', () => {
  it("puts the shards' tasks back in the order of the list, with means over all of them and the model's usage averaged over both shards", () => {
    const combined = combineResults(shards());

    expect(combined).toMatchObject({
      shard: { index: 0, count: 1 },
      task_ids: ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'],
      n_tasks: 5,
      n_scored: 3,
      file_acc_mean: 3 / 5,
      n_with_usage: 2,
      models: [{ name: model, ...usage, est_usd_cost: 0.5, llm_requests: 3 }],
    });
    expect(Object.keys(combined.task_metrics)).toEqual(combined.task_ids);
  });

  it('gives the intervals the whole list run on one green agent would give', () => {
    const combined = combineResults(shards());
    const whole = aggregateResults(
      combined.task_ids.map((task_id) => ({ task_id, metrics: combined.task_metrics[task_id] })),
      1,
    );

    expect(combined.confidence).toEqual(whole.confidence);
    expect(combined.confidence.intervals.file_acc_mean?.[0]).toBeLessThan(3 / 5);
  });

  it("keeps every task's record as its shard reported it, and takes the longest shard's time", () => {
    const [second, first] = shards();
    const combined = combineResults([first, second]);

    expect(combined.time_used).toBe(55);
    for (const shard of [first, second]) {
      for (const [task, entry] of Object.entries(shard.task_metrics)) expect(combined.task_metrics[task]).toEqual(entry);
    }
  });

  it('takes the root-cause means over all the shards, leaving out tasks without root-cause spans wherever they ran', () => {
    const onlyTests = scoreSubmission('[{"file": "a.c", "function": "f", "line_start": 10, "line_end": 19}]', { ...truth, rootCause: [] });
    const first = aggregateResults([{ task_id: 'sample:1', metrics: right }], 1, { index: 0, count: 2 });
    const second = aggregateResults(
      [
        { task_id: 'sample:2', metrics: onlyTests },
        { task_id: 'sample:4', metrics: scoreSubmission(null, truth) },
      ],
      1,
      { index: 1, count: 2 },
    );

    const combined = combineResults([first, second]);

    expect(combined).toMatchObject({ n_tasks: 3, file_acc_mean: 2 / 3, rc_n_without_ground_truth: 1, rc_file_acc_mean: 1 / 2, rc_line_iou_mean: 1 / 2 });
  });

  it('is the same Result when there is only one shard', () => {
    const whole = aggregateResults([{ task_id: 'sample:1', metrics: right, run }], 7);

    expect(combineResults([whole])).toEqual(whole);
  });

  it('combines shard Results made before the models list, their usage under no model name', () => {
    // As such a Result reads back: top-level usage sums, and no `models`, `n_with_usage` or per-task `model`.
    const newer = new Set(['models', 'n_with_usage', 'model']);
    const older = shards().map(
      (shard) =>
        JSON.parse(
          JSON.stringify({ ...shard, input_tokens: 100, est_usd_cost: 0.25 }, (key, value: unknown) => (newer.has(key) ? undefined : value)),
        ) as AssessmentResult,
    );

    const combined = combineResults(older);

    expect(combined).toMatchObject({ n_with_usage: 2, models: [{ name: null, input_tokens: 100, est_usd_cost: 0.5 }] });
    expect(combined).not.toHaveProperty('est_usd_cost');
  });

  it('keeps the draw its shards share, and refuses shards drawn otherwise', () => {
    const draw: TaskDraw = { list: 'samples', list_size: 5, seed: 7, task_ids: ['sample:3', 'sample:4', 'sample:5'] };
    const shard = (index: number, seed: number): AssessmentResult =>
      aggregateResults(
        draw.task_ids.filter((_, position) => position % 2 === index).map((taskId) => ({ task_id: taskId, metrics: right })),
        1,
        { index, count: 2 },
        { ...draw, seed },
      );

    expect(combineResults([shard(1, 7), shard(0, 7)])).toMatchObject({ task_ids: draw.task_ids, draw });
    expect(() => combineResults([shard(0, 7), shard(1, 8)])).toThrow('the shards drew their tasks differently (another list or seed)');
    expect(combineResults(shards()).draw).toBeNull();
  });

  it('refuses Results that are not the shards 0 to n-1 of one split, naming what it got', () => {
    const [second, first] = shards();

    expect(() => combineResults([first, first])).toThrow('(got 0/2, 0/2)');
    expect(() => combineResults([second])).toThrow('(got 1/2)');
    expect(() => combineResults([])).toThrow('(got none)');
  });
});
