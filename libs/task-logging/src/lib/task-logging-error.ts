import { CodedError } from '@arvo-rca/common';

type TaskLoggingErrorCode = 'LOG_DIR_UNWRITABLE' | 'RUN_DIRECTORY_CONTENDED' | 'INVALID_TASK_ID' | 'TASK_LOG_UNWRITABLE';

/** An error of the logging layer: a code for programs, a message that names the problem for people. */
export class TaskLoggingError extends CodedError<TaskLoggingErrorCode> {}

/** The operating system's words for a failed file operation, e.g. `EACCES: permission denied, mkdir '/logs'`. */
export function systemReason(error: unknown): string {
  // Not `instanceof Error`: errors from another realm (a test VM) are errors too.
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
}
