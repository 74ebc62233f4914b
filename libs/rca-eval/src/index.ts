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
export { filesMatch, normalizeFilePath } from './lib/file-match';
export {
  evaluateLocalization,
  iou,
  proximity,
  LINE_IOU_THRESHOLD,
  type LocalizationReport,
  type SpanScore,
} from './lib/localization-metrics';
export { diskLimitTask, failedTask, interruptedTask, scoreReading, scoreSubmission } from './lib/task-scoring';
export { combineResults } from './lib/combined-result';
