import { aggregateResults, SOLVER_USAGE_FIELDS, withSolverExit, type SolverUsage, type TaskMetrics } from '@arvo-rca/results';
import type { GroundTruth } from './ground-truth';
import { modifiedSpan, rootCauseNamed } from './metrics.testing';
import { failedTask, interruptedTask, scoreSubmission } from './task-scoring';

const truth: GroundTruth = { project: null, notes: [], spans: [modifiedSpan('a.c', 'f', 10, 19), modifiedSpan('b.c', 'g', 1, 4)] };
// Finds a.c exactly (f, lines 10-19) and nothing of b.c: half of everything, except precision (1 of 1).
const halfRight = scoreSubmission('[{"file": "a.c", "function": "f", "line_start": 10, "line_end": 19}]', truth);
const noGroundTruth = scoreSubmission(null, { spans: [], project: null, notes: [] });
const noUsage = {
  input_tokens: null,
  cache_read_tokens: null,
  cache_creation_tokens: null,
  output_tokens: null,
  est_usd_cost: null,
  time_cost_sec: null,
  llm_requests: null,
};
const noRun = { wall_time_sec: null, n_commands: null, n_failed_commands: null, n_attempts: null, masked_id: null, model: null };
const usage = (input: number, cost: number | null): SolverUsage => ({
  input_tokens: input,
  cache_read_tokens: 10,
  cache_creation_tokens: 5,
  output_tokens: input / 10,
  est_usd_cost: cost,
  time_cost_sec: 12.5,
  llm_requests: 4,
});

describe('aggregateResults', () => {
  it('averages over every requested task, counting missing, invalid and failed tasks as zero', () => {
    // halfRight's figures over four tasks, the other three at zero.
    const halfRightOfFourMeans = {
      file_acc_mean: 0.5 / 4,
      func_recall_mean: 0.5 / 4,
      func_precision_mean: 1 / 4,
      line_iou_mean: 0.5 / 4,
      line_proximity_mean: 0.5 / 4,
      func_topk_recall_mean: { '1': 0.5 / 4, '3': 0.5 / 4, '5': 0.5 / 4 },
      line_topk_recall_mean: { '1': 0.5 / 4, '3': 0.5 / 4, '5': 0.5 / 4 },
    };
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight },
        { task_id: 'arvo:2', metrics: scoreSubmission(null, truth) },
        { task_id: 'arvo:3', metrics: scoreSubmission('not json', truth) },
        { task_id: 'arvo:4', metrics: failedTask('the solver did not answer') },
      ],
      812.44,
    );
    expect(result).toEqual({
      domain: 'arvo_rca',
      shard: { index: 0, count: 1 },
      task_ids: ['arvo:1', 'arvo:2', 'arvo:3', 'arvo:4'],
      draw: null,
      n_tasks: 4,
      n_scored: 1,
      n_without_ground_truth: 0,
      time_used: 812.4,
      n_with_usage: 0,
      models: [],
      ...halfRightOfFourMeans,
      // The truth has no root-cause field: its spans are the root cause, scored the same.
      rc_n_without_ground_truth: 0,
      ...rootCauseNamed(halfRightOfFourMeans),
      // One of four tasks half right: every interval starts at none right (its values checked in libs/results).
      confidence: expect.objectContaining({ level: 0.95, intervals: expect.objectContaining({ file_acc_mean: [0, expect.any(Number)] }) }),
      task_metrics: {
        'arvo:1': { ...halfRight, ...noUsage, ...noRun },
        'arvo:2': expect.objectContaining({ status: 'no_submission', file_acc: 0 }),
        'arvo:3': expect.objectContaining({ status: 'invalid_submission', file_acc: 0 }),
        'arvo:4': expect.objectContaining({ status: 'failed', detail: 'the solver did not answer' }),
      },
    });
  });

  it('counts a task interrupted by a shutdown as zero, under its own status, until it is run again', () => {
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight },
        { task_id: 'arvo:2', metrics: interruptedTask('the green agent is shutting down', truth) },
      ],
      1,
    );
    expect(result).toMatchObject({ n_tasks: 2, n_scored: 1, n_without_ground_truth: 0, file_acc_mean: 0.25 });
    expect(result.task_metrics['arvo:2']).toMatchObject({ status: 'interrupted', detail: 'the green agent is shutting down', n_gt: 2, n_pred: 0, file_acc: 0 });
  });

  it('leaves a task without ground truth out of the means, but reports it', () => {
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight },
        { task_id: 'arvo:9', metrics: noGroundTruth },
      ],
      1,
    );
    expect(result).toMatchObject({ n_tasks: 2, n_scored: 1, n_without_ground_truth: 1, file_acc_mean: 0.5 });
    expect(result.line_topk_recall_mean).toEqual({ '1': 0.5, '3': 0.5, '5': 0.5 });
    expect(result.task_metrics['arvo:9']).toMatchObject({ status: 'no_ground_truth', file_acc: null });
  });

  it('leaves a task whose fix has no root-cause span out of the root-cause means, and counts it', () => {
    const onlyTests: GroundTruth = { ...truth, rootCause: [] };
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight },
        { task_id: 'arvo:2', metrics: scoreSubmission('[{"file": "a.c", "function": "f", "line_start": 10, "line_end": 19}]', onlyTests) },
        { task_id: 'arvo:9', metrics: noGroundTruth },
      ],
      1,
    );

    expect(result).toMatchObject({ n_without_ground_truth: 1, file_acc_mean: 0.5, rc_n_without_ground_truth: 2, rc_file_acc_mean: 0.5 });
    expect(result.rc_func_topk_recall_mean).toEqual({ '1': 0.5, '3': 0.5, '5': 0.5 });
  });

  it('leaves a task recorded before the root-cause metrics existed out of their means', () => {
    // As such a record reads back from its result.json: without any rc_ field.
    const earlier = JSON.parse(JSON.stringify(halfRight, (key, value: unknown) => (key.startsWith('rc_') ? undefined : value))) as TaskMetrics;
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: earlier },
        { task_id: 'arvo:2', metrics: failedTask('the solver did not answer', truth) },
      ],
      1,
    );

    expect(Object.keys(earlier).filter((key) => key.startsWith('rc_'))).toEqual([]);
    expect(result).toMatchObject({ file_acc_mean: 0.25, rc_n_without_ground_truth: 1, rc_file_acc_mean: 0 });
  });

  it('keeps both records of a task id requested twice', () => {
    const second: TaskMetrics = failedTask('container start failed');
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight },
        { task_id: 'arvo:1', metrics: second },
      ],
      0,
    );
    expect(Object.keys(result.task_metrics)).toEqual(['arvo:1', 'arvo:1#2']);
    expect(result.task_metrics['arvo:1#2']).toMatchObject(second);
    expect(result.task_ids).toEqual(['arvo:1', 'arvo:1']);
    expect(result.file_acc_mean).toBe(0.25);
  });

  it('gives zero means for an assessment with nothing to grade', () => {
    const result = aggregateResults([], 0);
    expect(result).toMatchObject({ n_tasks: 0, n_scored: 0, file_acc_mean: 0 });
    expect(result.func_topk_recall_mean).toEqual({ '1': 0, '3': 0, '5': 0 });
    expect(result.task_metrics).toEqual({});
  });

  it('survives a JSON round trip unchanged, as the artifact is sent', () => {
    const tasks = [
      { task_id: 'sample:1', metrics: halfRight },
      { task_id: 'sample:2', metrics: noGroundTruth },
    ];
    const result = aggregateResults(tasks, 3.25);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('says which shard of the list it covers, and which tasks', () => {
    const result = aggregateResults(
      [
        { task_id: 'sample:2', metrics: halfRight },
        { task_id: 'sample:4', metrics: failedTask('the image could not be pulled') },
      ],
      1,
      { index: 1, count: 2 },
    );

    expect(result).toMatchObject({ shard: { index: 1, count: 2 }, task_ids: ['sample:2', 'sample:4'], n_tasks: 2 });
  });

  it("keeps each task's solver usage as it reported it, and averages it per task for the model, over the tasks that reported any", () => {
    const gpt = 'openai/gpt-4.1';
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', model: gpt, metrics: withSolverExit(halfRight, { exitStatus: 'Submitted', usage: usage(1000, 0.1) }) },
        { task_id: 'arvo:2', model: gpt, metrics: withSolverExit(scoreSubmission(null, truth), { exitStatus: 'LimitsExceeded', usage: usage(3000, 0.2) }) },
        // Failed before the solver reported anything: not part of the means, neither as zero nor otherwise.
        { task_id: 'arvo:3', model: gpt, metrics: withSolverExit(failedTask('the solver did not answer'), { exitStatus: 'ModelError' }) },
      ],
      1,
    );

    expect(result.task_metrics['arvo:1']).toMatchObject({ ...usage(1000, 0.1), model: gpt });
    expect(result.task_metrics['arvo:3']).toMatchObject(noUsage);
    expect(result.n_with_usage).toBe(2);
    // CyberGym's `models[]`, field for field and in its order.
    expect(result.models).toEqual([
      {
        name: gpt,
        input_tokens: 2000,
        cache_read_tokens: 10,
        cache_creation_tokens: 5,
        output_tokens: 200,
        est_usd_cost: 0.15,
        time_cost_sec: 12.5,
        llm_requests: 4,
      },
    ]);
    expect(Object.keys(result.models[0])).toEqual(['name', ...SOLVER_USAGE_FIELDS]);
    expect(result).not.toHaveProperty('input_tokens');
  });

  it("gives a model's cost per task as null when the cost of any of its tasks is unknown, and still averages its tokens", () => {
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', model: 'openai/local', metrics: withSolverExit(halfRight, { exitStatus: 'Submitted', usage: usage(1000, null) }) },
        { task_id: 'arvo:2', model: 'openai/local', metrics: withSolverExit(halfRight, { exitStatus: 'Submitted', usage: usage(3000, 0.2) }) },
      ],
      1,
    );

    expect(result.task_metrics['arvo:1']).toMatchObject({ input_tokens: 1000, est_usd_cost: null });
    expect(result.models).toEqual([expect.objectContaining({ name: 'openai/local', input_tokens: 2000, est_usd_cost: null, llm_requests: 4 })]);
  });

  it('has no models entry when no task reported usage', () => {
    const result = aggregateResults([{ task_id: 'arvo:1', model: 'baseline', metrics: withSolverExit(halfRight, { exitStatus: 'Submitted' }) }], 1);

    expect(result).toMatchObject({ n_with_usage: 0, models: [] });
    expect(aggregateResults([], 0)).toMatchObject({ n_with_usage: 0, models: [] });
  });

  it("keeps the green agent's own wall time and command counts of each task, null where it has none", () => {
    const result = aggregateResults(
      [
        { task_id: 'arvo:1', metrics: halfRight, run: { seconds: 61.27, commands: 14, failed_commands: 3, attempts: 1 } },
        { task_id: 'arvo:2', metrics: failedTask('no such task') },
      ],
      62,
    );

    expect(result.task_metrics['arvo:1']).toMatchObject({ wall_time_sec: 61.3, n_commands: 14, n_failed_commands: 3, n_attempts: 1 });
    expect(result.task_metrics['arvo:2']).toMatchObject(noRun);
  });
});
