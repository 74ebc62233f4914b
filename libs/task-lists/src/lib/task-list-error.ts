import { CodedError } from '@arvo-rca/common';

type TaskListErrorCode = 'UNKNOWN_TASK_LIST' | 'TASK_LIST_NOT_BUNDLED' | 'TASK_LIST_UNREADABLE' | 'TASK_LIST_INVALID' | 'TASK_LIST_NOT_ALLOWED';
export class TaskListError extends CodedError<TaskListErrorCode> {}
