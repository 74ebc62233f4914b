import { aggregateResults, resultKeys, taskResult } from './assessment-result';
import { asRootCause, topKOf, type TaskMetrics } from './task-metrics';

// A record as the judge gives one for a task that failed before it was scored (rca-eval's failedTask).
const zero = { file_acc: 0, func_recall: 0, func_precision: 0, line_iou: 0, line_proximity: 0, func_topk_recall: topKOf(0), line_topk_recall: topKOf(0) };
const failed: TaskMetrics = {
  status: 'failed',
  detail: 'pulling arvo-rca-sample:1-vul failed',
  error_code: 'IMAGE_PULL_FAILED',
  n_gt: 0,
  n_pred: 0,
  ...zero,
  rc_n_gt: 0,
  ...asRootCause(zero),
};

describe('the Result', () => {
  it('keys a task requested again as <id>#2, #3, ...', () => {
    expect(resultKeys(['sample:1', 'sample:2', 'sample:1', 'sample:1'])).toEqual(['sample:1', 'sample:2', 'sample:1#2', 'sample:1#3']);
  });

  it("derives a task's entry from its record: its metrics with the error code, null usage, and the green's figures under their Result names", () => {
    const entry = taskResult({
      task_id: 'sample:1',
      masked_id: 'task:1a2b3c4d',
      metrics: failed,
      run: { seconds: 61.27, commands: 14, failed_commands: 3, attempts: 2 },
    });

    expect(entry).toMatchObject({ status: 'failed', error_code: 'IMAGE_PULL_FAILED', input_tokens: null, llm_requests: null });
    expect(entry).toMatchObject({ wall_time_sec: 61.3, n_commands: 14, n_failed_commands: 3, n_attempts: 2, masked_id: 'task:1a2b3c4d' });
  });

  it('counts a failed task as zero and names every task requested', () => {
    const result = aggregateResults([{ task_id: 'sample:1', metrics: failed }], 2);

    expect(result).toMatchObject({ task_ids: ['sample:1'], n_tasks: 1, n_scored: 0, file_acc_mean: 0, time_used: 2 });
    expect(result.task_metrics['sample:1']).toMatchObject({ error_code: 'IMAGE_PULL_FAILED', wall_time_sec: null });
  });
});
