import { isTaskId } from '@arvo-rca/common';
import { RecordError } from './record-error';

// A result key: the task id, and `#<n>` for the same id requested again.
const RESULT_KEY = /^([^#]*)(#[0-9]+)?$/;

/** `sample_1` for `sample:1`, `sample_1#2` for `sample:1#2`: the task's folder under `tasks/`. */
export function taskFolderName(resultKey: string): string {
  const [, taskId, repeat] = RESULT_KEY.exec(resultKey) ?? [];
  if (taskId === undefined || !isTaskId(taskId)) {
    throw new RecordError('RECORD_DAMAGED', `task ${JSON.stringify(resultKey)} is not <source>:<id> with letters, digits, _ or -`);
  }
  return `${taskId.replace(':', '_')}${repeat ?? ''}`;
}
