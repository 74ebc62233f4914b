import { aggregateResults } from './assessment-result';
import type { GroundTruth } from './ground-truth';
import { failedTask, interruptedTask, scoreSubmission, type TaskMetrics } from './task-scoring';

const truth: GroundTruth = {
  project: null,
  notes: [],
  spans: [
    {
      file: 'a.c',
      function: 'f',
      vulSpan: { start: 10, end: 19 },
      fixSpan: { start: 10, end: 19 },
      change: 'modified',
    },
    { file: 'b.c', function: 'g', vulSpan: { start: 1, end: 4 }, fixSpan: { start: 1, end: 4 }, change: 'modified' },
  ],
};
// Finds a.c exactly (f, lines 10-19) and nothing of b.c: half of everything, except precision (1 of 1).
const halfRight = scoreSubmission('[{"file": "a.c", "function": "f", "line_start": 10, "line_end": 19}]', truth);
const noGroundTruth = scoreSubmission(null, { spans: [], project: null, notes: [] });

describe('aggregateResults', () => {
  it('averages over every requested task, counting missing, invalid and failed tasks as zero', () => {
    const result = aggregateResults(
      [
        { taskId: 'arvo:1', metrics: halfRight },
        { taskId: 'arvo:2', metrics: scoreSubmission(null, truth) },
        { taskId: 'arvo:3', metrics: scoreSubmission('not json', truth) },
        { taskId: 'arvo:4', metrics: failedTask('the solver did not answer') },
      ],
      812.44,
    );
    expect(result).toEqual({
      domain: 'arvo_rca',
      n_tasks: 4,
      n_scored: 1,
      n_without_ground_truth: 0,
      time_used: 812.4,
      file_acc_mean: 0.5 / 4,
      func_recall_mean: 0.5 / 4,
      func_precision_mean: 1 / 4,
      line_iou_mean: 0.5 / 4,
      line_proximity_mean: 0.5 / 4,
      func_topk_recall_mean: { '1': 0.5 / 4, '3': 0.5 / 4, '5': 0.5 / 4 },
      line_topk_recall_mean: { '1': 0.5 / 4, '3': 0.5 / 4, '5': 0.5 / 4 },
      task_metrics: {
        'arvo:1': halfRight,
        'arvo:2': expect.objectContaining({ status: 'no_submission', file_acc: 0 }),
        'arvo:3': expect.objectContaining({ status: 'invalid_submission', file_acc: 0 }),
        'arvo:4': expect.objectContaining({ status: 'failed', detail: 'the solver did not answer' }),
      },
    });
  });

  it('counts a task interrupted by a shutdown as zero, under its own status, until it is run again', () => {
    const result = aggregateResults(
      [
        { taskId: 'arvo:1', metrics: halfRight },
        { taskId: 'arvo:2', metrics: interruptedTask('the green agent is shutting down', truth) },
      ],
      1,
    );
    expect(result).toMatchObject({ n_tasks: 2, n_scored: 1, n_without_ground_truth: 0, file_acc_mean: 0.25 });
    expect(result.task_metrics['arvo:2']).toMatchObject({ status: 'interrupted', detail: 'the green agent is shutting down', n_gt: 2, n_pred: 0, file_acc: 0 });
  });

  it('leaves a task without ground truth out of the means, but reports it', () => {
    const result = aggregateResults(
      [
        { taskId: 'arvo:1', metrics: halfRight },
        { taskId: 'arvo:9', metrics: noGroundTruth },
      ],
      1,
    );
    expect(result).toMatchObject({ n_tasks: 2, n_scored: 1, n_without_ground_truth: 1, file_acc_mean: 0.5 });
    expect(result.line_topk_recall_mean).toEqual({ '1': 0.5, '3': 0.5, '5': 0.5 });
    expect(result.task_metrics['arvo:9']).toMatchObject({ status: 'no_ground_truth', file_acc: null });
  });

  it('keeps both records of a task id requested twice', () => {
    const second: TaskMetrics = failedTask('container start failed');
    const result = aggregateResults(
      [
        { taskId: 'arvo:1', metrics: halfRight },
        { taskId: 'arvo:1', metrics: second },
      ],
      0,
    );
    expect(Object.keys(result.task_metrics)).toEqual(['arvo:1', 'arvo:1#2']);
    expect(result.task_metrics['arvo:1#2']).toBe(second);
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
      { taskId: 'sample:1', metrics: halfRight },
      { taskId: 'sample:2', metrics: noGroundTruth },
    ];
    const result = aggregateResults(tasks, 3.25);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });
});
