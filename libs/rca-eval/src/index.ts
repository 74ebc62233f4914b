export { CODE_EXTENSIONS, isCodeFile, parsePatchHunks, type FileChange, type PatchHunk } from './lib/patch-hunks';
export { JudgeError, type JudgeErrorCode } from './lib/judge-error';
export { defaultWasmPaths, dialectOf, FunctionLocator, type SourceDialect, type TreeSitterWasmPaths } from './lib/function-locator';
export { SourceTree, type LocatedFile } from './lib/source-tree';
export {
  GroundTruthExtractor,
  groundTruthFromPatch,
  type GroundTruth,
  type GroundTruthSpan,
} from './lib/ground-truth';
export { countsForRootCause, isTestOrHarnessFile, rootCauseTruth } from './lib/root-cause';
export type { RootCauseMetrics } from './lib/root-cause-metrics';
export { filesMatch, normalizeFilePath } from './lib/file-match';
export {
  evaluateLocalization,
  iou,
  proximity,
  LINE_IOU_THRESHOLD,
  TOP_KS,
  type LocalizationMetrics,
  type LocalizationReport,
  type SpanScore,
  type TopK,
} from './lib/localization-metrics';
export {
  diskLimitTask,
  failedTask,
  interruptedTask,
  scoreReading,
  scoreSubmission,
  TASK_USAGE_FIELDS,
  withSolverExit,
  type SolverExitReport,
  type TaskMetrics,
  type TaskStatus,
  type TaskUsage,
} from './lib/task-scoring';
export {
  aggregateResults,
  resultKeys,
  RESULT_DOMAIN,
  WHOLE_LIST,
  type AssessmentResult,
  type Shard,
  type TaskRecord,
  type TaskResult,
  type TaskRun,
} from './lib/assessment-result';
export { combineResults } from './lib/combined-result';
