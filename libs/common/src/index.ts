export { CodedError } from './lib/coded-error';
export { CLOCK_TICKS_PER_S, ProcessTable, type ProcessIdentity, type ProcessStat } from './lib/runtime/process-table';
export { ERROR_REPORT_PATTERN, errorReportName, LOC_JSON_PATH, SHARED_DIR, SOURCE_TREE, WORKSPACE } from './lib/tasks/workspace-layout';
export { renderTemplate, TemplateError, type TemplateVars } from './lib/text/text-template';
export { retryWithBackoff, type RetryPolicy } from './lib/runtime/retry-with-backoff';
export { fillImageTemplate, isTaskSourceName, TASK_SOURCE_IMAGES, TASK_SOURCE_NAMES, taskImage, type TaskSourceName } from './lib/tasks/task-sources';
export { FileReadError, readRegularFile } from './lib/files/regular-file';
export {
  bashActions,
  MAX_TRAJECTORY_CHARS,
  replyThought,
  TRAJECTORY_FORMAT,
  type SolverTrajectory,
  type Trajectory,
  type TrajectoryCommand,
  type TrajectoryMessage,
  type TrajectoryModelCall,
} from './lib/tasks/trajectory-format';
export { isRecord } from './lib/is-record';
export { quote } from './lib/text/quote';
export { formatBytes } from './lib/text/format-bytes';
export { textHead } from './lib/text/text-head';
export { DEFAULT_TASK_SOURCE, isTaskId, parseTaskRef, TASK_ID_PATTERN, TaskRefError, type TaskRef } from './lib/tasks/task-ref';
export { PendingSleeps } from './lib/runtime/pending-sleeps';
export { NeededSet } from './lib/runtime/needed-set';
export { IDLE_CONNECTION_MS, idleBoundAgent } from './lib/runtime/idle-bound-agent';
export { HelperProcess } from './lib/runtime/helper-process';
export { writeFileAtomic, writeJsonAtomic } from './lib/files/atomic-file';
export { type LedgerFormat, UsageLedger } from './lib/files/usage-ledger';
