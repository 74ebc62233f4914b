export { CodedError } from './lib/coded-error';
export { ProcessTable, type ProcessIdentity } from './lib/process-table';
export { ERROR_REPORT_PATTERN, errorReportName, LOC_JSON_PATH, SHARED_DIR, SOURCE_TREE, WORKSPACE } from './lib/workspace-layout';
export { renderTemplate, TemplateError, type TemplateVars } from './lib/text-template';
export { retryWithBackoff, type RetryPolicy } from './lib/retry-with-backoff';
export { fillImageTemplate, isTaskSourceName, TASK_SOURCE_IMAGES, TASK_SOURCE_NAMES, taskImage, type TaskSourceName } from './lib/task-sources';
export { FileReadError, readRegularFile } from './lib/regular-file';
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
} from './lib/trajectory-format';
export { isRecord } from './lib/is-record';
export { quote } from './lib/quote';
export { formatBytes } from './lib/format-bytes';
export { textHead } from './lib/text-head';
export { DEFAULT_TASK_SOURCE, isTaskId, parseTaskRef, TASK_ID_PATTERN, TaskRefError, type TaskRef } from './lib/task-ref';
export { PendingSleeps } from './lib/pending-sleeps';
export { NeededSet } from './lib/needed-set';
export { writeFileAtomic, writeJsonAtomic } from './lib/atomic-file';
export { type LedgerFormat, UsageLedger } from './lib/usage-ledger';
