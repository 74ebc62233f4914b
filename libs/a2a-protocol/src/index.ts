export { A2aModule, type A2aModuleOptions } from './lib/a2a.module';
export { AGENT_CARD_PATH, BEARER_SCHEME, buildAgentCard, PRODUCT_VERSION, withBearerAuth, withTrailingSlash, type AgentCardSpec } from './lib/agent-card';
export { AGENT_CARD, DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_BODY_BYTES, type A2aServerOptions } from './lib/server/a2a-server.tokens';
export { isLegacyVersion, toLegacyAgentCard, type LegacyAgentCard } from './lib/server/legacy-agent-card';
export { TaskEvents } from './lib/server/task-events';
export { BoundedTaskStore } from './lib/server/bounded-task-store';
// Clients of peer agents.
export { A2aClientFactory, type A2aClientOptions } from './lib/client/a2a-client.factory';
export { A2aPeer, type PeerCallOptions } from './lib/client/a2a-peer';
export { A2aPeerError, type PeerErrorCode } from './lib/client/peer-error';
export { isTerminalState, isUnsuccessfulState, type PeerEvent, type PeerTaskState } from './lib/client/peer-events';
export { createHttpFetch, type HttpFetchOptions } from './lib/client/http-fetch';
export { waitForAgentCard, type CardWaitOptions } from './lib/client/wait-for-card';
// The message vocabulary of the two agents, and the names of the dialects they speak it in.
export { DEFAULT_DIALECT, DIALECT_NAMES, DIALECTS, isDialectName, TERMINAL_BENCH_TAG, type DialectName } from './lib/dialects/dialect-names';
export { findTaskId } from './lib/vocabulary/task-request';
export {
  EXECUTE_PREFIX,
  formatExecute,
  formatReplyCorrection,
  MAX_SOLVER_REPLY_CHARS,
  parseSolverMessage,
  parseSolverReply,
  TASK_FINISHED,
  type SolverMessage,
  type SolverReply,
} from './lib/vocabulary/solver-message';
export {
  formatSolverExit,
  MAX_EXIT_REASON_CHARS,
  parseSolverExit,
  parseSolverUsage,
  summarizedSolverExit,
  type SolverExit,
  type SolverExitData,
  type SolverUsage,
} from './lib/vocabulary/solver-exit';
export { MAX_TRAJECTORY_SUMMARY_CHARS, SUMMARY_COMMAND_CHARS, summarizeTrajectory } from './lib/vocabulary/trajectory-summary';
export {
  clampExecTimeout,
  DEFAULT_EXEC_TIMEOUT_S,
  formatShellMessage,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type ExecRequest,
  type ExecResult,
  type ShellFinal,
  type ShellMessage,
  type ShellTask,
} from './lib/vocabulary/terminal-bench-shell';
export { formatCommandResult, parseCommandResult } from './lib/vocabulary/command-result';
// What a command did and how far an image's pull is are the sandbox's; the vocabulary formats them.
export type { CommandResult, PullProgress } from '@arvo-rca/sandbox';
export { formatAssessmentSaved, parseAssessmentSaved, type AssessmentSaved, type AssessmentSavedData } from './lib/vocabulary/assessment-saved';
export { readPeerCard, SOLVER_MODEL_EXTENSION, solverModelExtension, type PeerCard } from './lib/vocabulary/peer-card';
export {
  COMMAND_REJECTED_PREFIX,
  formatCommandRejected,
  formatTaskCompleted,
  NO_RUNNING_TASK,
  parseAssessorReply,
  parseCommandRejected,
  parseTaskCompleted,
  TASK_COMPLETED,
  type AssessorReply,
  type TaskSummary,
} from './lib/vocabulary/assessor-reply';
export {
  describePull,
  formatSolverStep,
  formatTaskProgress,
  formatTaskProgressData,
  parseSolverStep,
  parseTaskProgress,
  parseTaskProgressData,
  type SolverStep,
  type TaskProgressData,
  type TaskProgressLine,
} from './lib/vocabulary/progress';
export {
  declaresRunRecord,
  formatRunRecord,
  MAX_RECORD_FILES_CHARS,
  parseRunRecord,
  RUN_RECORD_ARTIFACT,
  RUN_RECORD_EXTENSION,
  runRecordExtension,
  taskPiece,
  type LeftOutFile,
  type RunRecordData,
  type RunRecordPiece,
} from './lib/vocabulary/run-record-files';
// The assessment request as it travels, and the resume it may ask for: one shape for the runner and the green agent.
export {
  ASSESSMENT_CONFIG_KEYS,
  MAX_CONCURRENCY,
  type AssessmentConfigBody,
  type AssessmentConfigKey,
  type AssessmentRequestBody,
  type ResumeConfigBody,
  type TaskConfigBody,
} from './lib/assessment-request/assessment-request-body';
export { formatResumeRequest, readResumeConfig, type ResumeRequest } from './lib/assessment-request/resume-request';
export { readRecordResume, recordedTaskIds, type RecordResume } from './lib/assessment-request/record-resume';
