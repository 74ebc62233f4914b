// A task's record (`task.json`, or `result.json` in older records) read back, in the format of today or of the records written before it.
import { isRecord } from '@arvo-rca/common';
import { TASK_FORMAT, TASK_STATUSES, type TaskRecord, type TaskStatus } from '@arvo-rca/results';

/** The first task format: the same record, but `run` in camelCase (`failedCommands`) and no `finish_reason`. */
export const TASK_FORMAT_1 = 'arvo-rca-task-1';

const RUN_FIGURES = {
  [TASK_FORMAT]: ['seconds', 'commands', 'failed_commands', 'attempts'],
  [TASK_FORMAT_1]: ['seconds', 'commands', 'failedCommands', 'attempts'],
} as const;

/** The record of task `key` in `value`, a record of either format made today's; or why it is none. */
export function taskRecordOf(value: unknown, key: string): { record: TaskRecord } | { problem: string } {
  const problem = taskProblem(value, key);
  if (problem) return { problem };
  const record = value as TaskRecord | FirstFormatRecord;
  return { record: record.format === TASK_FORMAT_1 ? fromFirstFormat(record) : record };
}

interface FirstFormatRecord extends Omit<TaskRecord, 'format' | 'finish_reason' | 'run'> {
  format: typeof TASK_FORMAT_1;
  run: { seconds: number; commands: number; failedCommands: number; attempts: number };
}

function fromFirstFormat({ format: _format, run, ...rest }: FirstFormatRecord): TaskRecord {
  const { seconds, commands, failedCommands, attempts } = run;
  const { task, task_id, masked_id, context_id, metrics, session, finished_at, files } = rest;
  return {
    format: TASK_FORMAT,
    task,
    task_id,
    masked_id,
    context_id,
    finish_reason: null,
    metrics,
    run: { seconds, commands, failed_commands: failedCommands, attempts },
    session,
    finished_at,
    files,
  };
}

function taskProblem(value: unknown, key: string): string | undefined {
  if (!isRecord(value)) return 'is not a JSON object';
  const format = value['format'];
  if (format !== TASK_FORMAT && format !== TASK_FORMAT_1) return `has format ${JSON.stringify(format)}, not ${TASK_FORMAT} (or ${TASK_FORMAT_1})`;
  if (value['task'] !== key) return `is the record of ${JSON.stringify(value['task'])}, not of ${key}`;
  const metrics = value['metrics'];
  if (!isRecord(metrics) || !TASK_STATUSES.includes(metrics['status'] as TaskStatus)) return 'has no metrics with a known status';
  const run = value['run'];
  if (!isRecord(run) || !RUN_FIGURES[format].every((field) => typeof run[field] === 'number')) return 'has no run figures';
  if (typeof value['session'] !== 'number' || typeof value['finished_at'] !== 'string') return 'does not say when it was recorded';
  return undefined;
}
