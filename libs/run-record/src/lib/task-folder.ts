import { RecordError } from './record-error';

// A task key as the Result has it: `<source>:<id>`, and `#<n>` for the same id requested again.
const TASK_KEY = /^([0-9A-Za-z_-]+):([0-9A-Za-z_-]+)(#[0-9]+)?$/;

/** `sample_1` for `sample:1`, `sample_1#2` for `sample:1#2`: the task's folder under `tasks/`. */
export function taskFolderName(taskKey: string): string {
  const parts = TASK_KEY.exec(taskKey);
  if (!parts) throw new RecordError('RECORD_DAMAGED', `task ${JSON.stringify(taskKey)} is not <source>:<id> with letters, digits, _ or -`);
  return `${parts[1]}_${parts[2]}${parts[3] ?? ''}`;
}
