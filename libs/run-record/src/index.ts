export { assessmentFileOf } from './lib/assessment-reader';
export { RecordError, type RecordErrorCode } from './lib/record-error';
export {
  ASSESSMENT_FORMAT,
  RECORDS_FOLDER,
  SOURCES_FORMAT,
  type AgentIdentity,
  type AssessmentFile,
  recordedSandbox,
  type RankedSpan,
  type RecordedSandbox,
  type RecordSession,
  type ScoringSettings,
  type SolverIdentity,
  type SourceExcerpt,
  type SourcesFile,
  type Span,
} from './lib/record-format';
export { compareRecords } from './lib/record-comparison';
export { recordFolders, type RecordFolder } from './lib/record-folders';
export { RecordCopy } from './lib/record-copy';
export { RECORD_LOCK_FILE, RecordLock, type LockOwner, type RecordLockKind } from './lib/record-lock';
export { recordResult, scanRecord, tasksToRun, type DamagedTask, type RecordScan } from './lib/record-scan';
export { RecordWriter, type NewAssessment, type TaskEvidence } from './lib/record-writer';
// The run record's files as the green agent sends them to a runner that keeps its own copy.
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
} from './lib/run-record-files';
export { settingsDifferences, settingsHash } from './lib/scoring-settings';
export { taskFolderName } from './lib/task-folder';
export {
  isTaskFolderFileName,
  readTaskFolder,
  TASK_FOLDER_FILES,
  type TaskFolder,
  type TaskFolderFileName,
  type TaskFolderFiles,
} from './lib/task-folder-files';
export { taskRecordOf } from './lib/task-record-reader';
