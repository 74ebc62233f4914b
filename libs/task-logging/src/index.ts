export { WinstonLoggerFactory } from './lib/winston-logger.factory';
export { TaskLoggingModule } from './lib/task-logging.module';
export { TaskLogScope } from './lib/task-log-scope';
export { DEFAULT_LOG_BOUNDS } from './lib/task-log-budget';
export type { AgentName } from './lib/log-line';
export { runDirectoryName } from './lib/run-directory';
