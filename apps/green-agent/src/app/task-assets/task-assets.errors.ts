import { CodedError } from '@arvo-rca/common';

export { quote } from '@arvo-rca/common';

/** What went wrong while preparing a task's assets; the A2A layer reports the code and the message. */
export type TaskAssetsErrorCode =
  | 'INVALID_TASK_ID'
  | 'UNKNOWN_TASK_SOURCE'
  | 'TASK_NOT_FOUND'
  | 'DOWNLOAD_FAILED'
  | 'BROKEN_ARCHIVE'
  /** The archive passes ARCHIVE_MAX_BYTES, ARCHIVE_MAX_ENTRIES, ARCHIVE_MAX_FILE_BYTES or ARCHIVE_MAX_COMPRESSION_RATIO; the message names which. */
  | 'ARCHIVE_TOO_LARGE'
  /** Extraction stopped because the green agent is shutting down. */
  | 'EXTRACTION_ABORTED'
  /** The host could not write the tree (no GNU tar, a full disk ...): not the archive's fault. */
  | 'EXTRACTION_FAILED';

export class TaskAssetsError extends CodedError<TaskAssetsErrorCode> {
  /** The same error, its message prefixed with the task it concerns. */
  forTask(taskId: string): TaskAssetsError {
    return this.message.startsWith(`${taskId}: `) ? this : new TaskAssetsError(this.code, `${taskId}: ${this.message}`, { cause: this });
  }
}
