import { CodedError } from '@arvo-rca/common';

export type ViewerErrorCode =
  | 'NOT_FOUND'
  | 'RECORD_NOT_FOUND'
  | 'TASK_NOT_FOUND'
  | 'FILE_NOT_FOUND'
  | 'OUTSIDE_RUN_DIRS'
  | 'METHOD_NOT_ALLOWED'
  | 'BAD_REQUEST'
  | 'UNREADABLE'
  | 'INTERNAL';

const STATUS: Record<ViewerErrorCode, number> = {
  NOT_FOUND: 404,
  RECORD_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  OUTSIDE_RUN_DIRS: 403,
  METHOD_NOT_ALLOWED: 405,
  BAD_REQUEST: 400,
  UNREADABLE: 422,
  INTERNAL: 500,
};

/** A request the viewer cannot answer, with a message for the person reading the page. */
export class ViewerError extends CodedError<ViewerErrorCode> {
  get status(): number {
    return STATUS[this.code];
  }
}
