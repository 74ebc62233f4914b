import { isTaskId } from '@arvo-rca/common';
import { TaskLoggingError } from './task-logging-error';

/** `log_<YYYY-MM-DD_HH-MM-SS>`: the name of one run's log directory, in local time as operators read it. */
export function runDirectoryName(at: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
  return `log_${day}_${time}`;
}

/** `arvo_14368.log` for task `arvo:14368`: one file per task id, shared by both agents. */
export function taskLogFileName(taskId: string): string {
  return `${taskFileStem(taskId)}.log`;
}

/** `arvo_14368` for task `arvo:14368`: the task id as a file name, refused unless it is `<source>:<id>`. */
export function taskFileStem(taskId: string): string {
  if (!isTaskId(taskId)) {
    throw new TaskLoggingError('INVALID_TASK_ID', `task id ${JSON.stringify(taskId)} is not <source>:<id> with letters, digits, _ or -`);
  }
  return taskId.replace(':', '_');
}

/** The first 8 characters of a context id, made safe to print inside a log line. */
export function shortContextId(contextId: string): string {
  return contextId.slice(0, 8).replace(/[^0-9A-Za-z_.-]/g, '_') || '?';
}
