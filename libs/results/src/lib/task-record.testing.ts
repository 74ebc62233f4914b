// What the specs of code built on the record expect, spelled once: a task's record as the green agent drafts it,
// and the metrics of a task that failed around the solver.
import { asRootCause, metricsAt, type TaskMetrics } from './task-metrics';
import type { TaskRecordDraft } from './task-record';

/** A task the green agent ran to the end: its id is the key's (`<id>#2` runs `<id>`), one attempt of 2 commands. */
export function taskDraft(task: string, metrics: TaskMetrics, fields: Partial<TaskRecordDraft> = {}): TaskRecordDraft {
  return {
    task,
    task_id: task.split('#')[0],
    masked_id: null,
    context_id: `ctx-${task}`,
    finish_reason: 'finished',
    metrics,
    run: { seconds: 1, commands: 2, failed_commands: 0, attempts: 1 },
    ...fields,
  };
}

/** A task that failed around the solver, as the judge records it (rca-eval's failedTask): zero scores, and the reason when given. */
export function failedMetrics(detail?: string): TaskMetrics {
  const zero = metricsAt(0);
  return { status: 'failed', ...(detail === undefined ? {} : { detail }), n_gt: 0, n_pred: 0, ...zero, rc_n_gt: 0, ...asRootCause(zero) };
}
