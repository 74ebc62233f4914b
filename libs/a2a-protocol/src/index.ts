export { A2aModule, type A2aModuleOptions } from './lib/a2a.module';
export { AGENT_CARD_PATH, buildAgentCard, PRODUCT_VERSION } from './lib/agent-card';
export { DEFAULT_MAX_BODY_BYTES, type A2aServerOptions } from './lib/server/a2a-server.tokens';
export { isLegacyVersion, toLegacyAgentCard, type LegacyAgentCard } from './lib/server/legacy-agent-card';
export { TaskEvents } from './lib/server/task-events';
export { BoundedTaskStore } from './lib/server/task-store/bounded-task-store';
// Clients of peer agents.
export { A2aClientFactory } from './lib/client/a2a-client.factory';
export { A2aPeer } from './lib/client/a2a-peer';
export { A2aPeerError } from './lib/client/peer-error';
export { isTerminalState, type PeerEvent, type PeerTaskState } from './lib/client/peer-events';
export { createHttpFetch } from './lib/client/http-fetch';
export { waitForAgentCard } from './lib/client/wait-for-card';
// The message vocabulary of the two agents, and the names of the dialects they speak it in.
export { DEFAULT_DIALECT, DIALECT_NAMES, DIALECTS, isDialectName, TERMINAL_BENCH_TAG, type DialectName } from './lib/dialects/dialect-names';
export { findTaskId } from './lib/vocabulary/task-request';
export {
  EXECUTE_PREFIX,
  formatExecute,
  formatReplyCorrection,
  parseSolverMessage,
  parseSolverReply,
  TASK_FINISHED,
  type SolverMessage,
} from './lib/vocabulary/solver-message';
export { formatSolverExit, parseSolverExit, summarizedSolverExit, type SolverExit, type SolverUsage } from './lib/vocabulary/solver-exit';
export {
  clampExecTimeout,
  formatShellMessage,
  parseShellMessage,
  TERMINAL_BENCH_SHELL,
  type ExecRequest,
  type ExecResult,
  type ShellFinal,
  type ShellMessage,
} from './lib/vocabulary/terminal-bench-shell';
// What a command did (CommandResult) and how far an image's pull is (PullProgress) are the sandbox's types,
// imported from @arvo-rca/sandbox; the vocabulary only formats them.
export { formatCommandResult, parseCommandResult } from './lib/vocabulary/command-result';
export { formatAssessmentSaved, parseAssessmentSaved } from './lib/vocabulary/assessment-saved';
export { readPeerCard, solverModelExtension, type PeerCard } from './lib/vocabulary/peer-card';
export { formatCommandRejected, formatTaskCompleted, NO_RUNNING_TASK, parseAssessorReply, type AssessorReply } from './lib/vocabulary/assessor-reply';
export {
  describePull,
  formatSolverStep,
  formatTaskProgress,
  formatTaskProgressData,
  parseTaskProgress,
  parseTaskProgressLines,
  type TaskProgressLine,
} from './lib/vocabulary/progress';
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
