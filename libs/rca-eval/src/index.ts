export { parsePatchHunks } from './lib/patch-hunks';
export { GroundTruthExtractor, type GroundTruth } from './lib/ground-truth';
export { filesMatch, normalizeFilePath } from './lib/file-match';
export { diskLimitTask, failedTask, interruptedTask, scoreReading, scoreSubmission, type SubmissionRefusal } from './lib/task-scoring';
export { combineResults } from './lib/combined-result';
