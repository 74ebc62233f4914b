// Green → runner: the run record's files as the green agent writes them, so that a runner on another
// machine (or outside the green agent's container) keeps the record in its own run directory. Sent only
// when the request asks (`config.send_record: true`), which a runner does when the green agent's card
// declares RUN_RECORD_EXTENSION; AgentBeats' gateway asks for none, and its results stay the Result alone.
// Each goes as an artifact named `Run record` with one data part:
//   {"run_record": {"record_id": "2026-11-23_22-59-01_ab12cd34", "kind": "assessment", "assessment": {...}}}
//     assessment.json, when a session begins and when it ends;
//   {"run_record": {"record_id": "...", "kind": "task", "record": {...}, "files": {"crash.txt": "...", ...},
//                   "left_out": [{"name": "fix.diff", "chars": 30000000}]}}
//     a task's record (its task.json) and the files of its folder, the moment it is written (a resume sends the tasks
//     of the earlier sessions first). A task's files carry at most MAX_RECORD_FILES_CHARS of text, each
//     file whole: one that would pass it is named in `left_out` and stays on the green agent's side.
// The record's final result.json is the `Result` artifact itself. All `Run record` artifacts of an
// assessment share one artifact id, so that each replaces the one before in the green agent's task store,
// which then holds one task's files rather than the whole run's.
import type { AgentExtension } from '@a2a-js/sdk';
import { isRecord } from '@arvo-rca/common';
import type { TaskRecord } from '@arvo-rca/results';
import { assessmentFileOf } from './assessment-reader';
import type { AssessmentFile } from './record-format';
import { isTaskFolderFileName, TASK_FOLDER_FILES, type TaskFolderFileName } from './record-layout';
import type { TaskFolder, TaskFolderFiles } from './task-folder-files';
import { taskRecordOf } from './task-record-reader';

const RUN_RECORD_EXTENSION = 'urn:arvo-rca:run-record:1';
export const RUN_RECORD_ARTIFACT = 'Run record';
/** A solver's trajectory at its own bound (16 MiB) fits, with room for the task's other files. */
export const MAX_RECORD_FILES_CHARS = 24 * 1024 * 1024;

/** A file of a task's folder that was not sent, and its length in characters. */
interface LeftOutFile {
  name: TaskFolderFileName;
  chars: number;
}

export type RunRecordPiece =
  { recordId: string; kind: 'assessment'; assessment: AssessmentFile } | { recordId: string; kind: 'task'; task: TaskFolder; leftOut: LeftOutFile[] };

interface RunRecordData {
  run_record:
    | { record_id: string; kind: 'assessment'; assessment: AssessmentFile }
    | { record_id: string; kind: 'task'; record: TaskRecord; files: TaskFolderFiles; left_out: LeftOutFile[] };
}

// A record id as the record writer makes it: a folder's name, never a path.
const RECORD_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/** The card extension by which a green agent says it sends its run record's files when asked. */
export function runRecordExtension(): AgentExtension {
  return {
    uri: RUN_RECORD_EXTENSION,
    description: 'Sends the files of its run record as it writes them, as `Run record` artifacts, when the request says "send_record": true.',
    required: false,
    params: undefined,
  };
}

/** Whether an agent's card declares RUN_RECORD_EXTENSION. */
export function declaresRunRecord(card: unknown): boolean {
  const capabilities = isRecord(card) && isRecord(card['capabilities']) ? card['capabilities'] : {};
  const extensions = Array.isArray(capabilities['extensions']) ? capabilities['extensions'] : [];
  return extensions.some((extension) => isRecord(extension) && extension['uri'] === RUN_RECORD_EXTENSION);
}

/** A task's piece: the files of its folder in their order, each whole while their sum stays within `bound`, the others left out. */
export function taskPiece(recordId: string, task: TaskFolder, bound = MAX_RECORD_FILES_CHARS): RunRecordPiece {
  const files: TaskFolderFiles = {};
  const leftOut: LeftOutFile[] = [];
  let room = bound;
  for (const name of Object.keys(TASK_FOLDER_FILES).filter(isTaskFolderFileName)) {
    const content = task.files[name];
    if (content === undefined) continue;
    if (content.length > room) leftOut.push({ name, chars: content.length });
    else [files[name], room] = [content, room - content.length];
  }
  return { recordId, kind: 'task', task: { record: task.record, files }, leftOut };
}

export function formatRunRecord(piece: RunRecordPiece): RunRecordData {
  if (piece.kind === 'assessment')
    // A copy: the writer goes on changing its header (a session's end) while this one waits to be sent.
    return { run_record: { record_id: piece.recordId, kind: 'assessment', assessment: structuredClone(piece.assessment) } };
  const { record, files } = piece.task;
  return { run_record: { record_id: piece.recordId, kind: 'task', record, files, left_out: piece.leftOut } };
}

/** The piece among an artifact's data parts; `problem` when one is there but cannot be kept, undefined when none is. */
export function parseRunRecord(data: readonly unknown[]): RunRecordPiece | { problem: string } | undefined {
  const value = data.find((item) => isRecord(item) && 'run_record' in item);
  if (!isRecord(value)) return undefined;
  const piece = value['run_record'];
  if (!isRecord(piece)) return { problem: 'run_record is not an object' };
  const recordId = piece['record_id'];
  if (typeof recordId !== 'string' || !RECORD_ID.test(recordId)) return { problem: `record_id ${JSON.stringify(recordId)} is not the id of a run record` };
  if (piece['kind'] === 'assessment') return assessmentPiece(recordId, piece['assessment']);
  if (piece['kind'] === 'task') return taskPieceOf(recordId, piece);
  return { problem: `record ${recordId}: kind ${JSON.stringify(piece['kind'])} is neither "assessment" nor "task"` };
}

function assessmentPiece(recordId: string, value: unknown): RunRecordPiece | { problem: string } {
  const read = assessmentFileOf(value);
  if ('problem' in read) return { problem: `record ${recordId}: assessment.json is damaged: ${read.problem}` };
  if (read.assessment.id !== recordId) return { problem: `record ${recordId}: assessment.json is that of record ${JSON.stringify(read.assessment.id)}` };
  return { recordId, kind: 'assessment', assessment: read.assessment };
}

function taskPieceOf(recordId: string, piece: Record<string, unknown>): RunRecordPiece | { problem: string } {
  const value = piece['record'];
  const key = isRecord(value) && typeof value['task'] === 'string' ? value['task'] : '(no task)';
  const read = taskRecordOf(value, key);
  if ('problem' in read) return { problem: `record ${recordId}: the task.json of ${key} ${read.problem}` };
  const files = piece['files'];
  if (!isRecord(files) || !Object.entries(files).every(([name, content]) => isTaskFolderFileName(name) && typeof content === 'string'))
    return { problem: `record ${recordId}: the files of ${key} are not texts named ${Object.keys(TASK_FOLDER_FILES).join(', ')}` };
  const leftOut = piece['left_out'] ?? [];
  if (!Array.isArray(leftOut) || !leftOut.every(isLeftOut)) return { problem: `record ${recordId}: left_out of ${key} does not name files and their lengths` };
  return { recordId, kind: 'task', task: { record: read.record, files: files as TaskFolderFiles }, leftOut };
}

function isLeftOut(value: unknown): value is LeftOutFile {
  return isRecord(value) && typeof value['name'] === 'string' && isTaskFolderFileName(value['name']) && Number.isInteger(value['chars']);
}
