export { assessmentFileOf } from './lib/assessment-reader';
export { RecordError, type RecordErrorCode } from './lib/record-error';
export {
  ASSESSMENT_FORMAT,
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
export {
  isTaskFolderFileName,
  RECORD_LOCK_FILE,
  RecordLayout,
  RECORDS_FOLDER,
  recordsFolderOf,
  TASK_FOLDER_FILES,
  taskFolderName,
  type TaskFolderFileName,
} from './lib/record-layout';
export { RecordLock, type LockOwner, type RecordLockKind } from './lib/record-lock';
export { recordResult, scanRecord, tasksToRun, type DamagedTask, type RecordScan } from './lib/record-scan';
export { RecordWriter, type NewAssessment, type TaskEvidence } from './lib/record-writer';
export { settingsDifferences, settingsHash } from './lib/scoring-settings';
export { readTaskFolder, type TaskFolder, type TaskFolderFiles } from './lib/task-folder-files';
export { taskRecordOf } from './lib/task-record-reader';
