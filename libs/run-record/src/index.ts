export { RecordError } from './lib/record-error';
export {
  SOURCES_FORMAT,
  type AssessmentFile,
  recordedSandbox,
  type RankedSpan,
  type ScoringSettings,
  type SolverIdentity,
  type SourceExcerpt,
  type SourcesFile,
  type Span,
} from './lib/record-format';
export { compareRecords } from './lib/record-comparison';
export { recordFolders, type RecordFolder } from './lib/record-folders';
export { RecordCopy } from './lib/record-copy';
// Where each file of a record is: every reader and writer of a record asks it.
export { RECORD_LOCK_FILE, RecordLayout, RECORDS_FOLDER, recordsFolderOf, taskFolderName } from './lib/record-layout';
export { RecordLock } from './lib/record-lock';
export { recordResult, scanRecord, tasksToRun, type RecordScan } from './lib/record-scan';
// What a resume of a record runs, read from the record alone: one reading for the runner and the green agent.
export { readRecordResume, recordedTaskIds, type RecordResume } from './lib/record-resume';
export { RecordWriter, type TaskEvidence } from './lib/record-writer';
// The run record's files as the green agent sends them to a runner that keeps its own copy.
export {
  declaresRunRecord,
  formatRunRecord,
  MAX_RECORD_FILES_CHARS,
  parseRunRecord,
  RUN_RECORD_ARTIFACT,
  runRecordExtension,
  taskPiece,
  type RunRecordPiece,
} from './lib/run-record-files';
export { settingsDifferences, settingsHash } from './lib/scoring-settings';
export { readTaskFolder, type TaskFolder } from './lib/task-folder-files';
