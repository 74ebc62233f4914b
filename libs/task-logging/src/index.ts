export { AGENTS_LOG_FILE, WinstonLoggerFactory, type TaskLoggingOptions } from './lib/winston-logger.factory';
export { TASK_LOGGING_OPTIONS, TaskLoggingModule, type TaskLoggingModuleOptions } from './lib/task-logging.module';
export { TaskLogScope, type LoggedTask } from './lib/task-log-scope';
export type { AgentName, TaskLogLevel } from './lib/log-line';
export type { ConsoleOutput } from './lib/log-transports';
export { CURRENT_RUN_FILE, RECENT_RUN_MS } from './lib/run-directory-resolver';
export { runDirectoryName, shortContextId, taskLogFileName } from './lib/run-directory';
export { TASK_ALIASES_FOLDER } from './lib/task-aliases';
export { TaskLoggingError, type TaskLoggingErrorCode } from './lib/task-logging-error';
