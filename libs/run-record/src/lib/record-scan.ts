import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { aggregateResults, resultKeys, type AssessmentResult, type TaskRecord, type TaskStatus } from '@arvo-rca/results';
import { assessmentFileOf } from './assessment-reader';
import type { AssessmentFile } from './record-format';
import { RecordError } from './record-error';
import { RecordLayout } from './record-layout';
import { taskRecordOf } from './task-record-reader';

/** A task whose record cannot be used, and why in words. */
interface DamagedTask {
  task: string;
  reason: string;
}

/** A record as found on disk: every task's state, read once. */
export interface RecordScan {
  folder: string;
  /** The run directory that holds the record. */
  runDir: string;
  assessment: AssessmentFile;
  /** Every task's result key (its task id, `#2` added for a repeat), in the requested order. */
  resultKeys: string[];
  done: Map<string, TaskRecord>;
  damaged: DamagedTask[];
  /** Tasks with no result yet: they were running, or had not started, when the session ended. */
  missing: string[];
}

// Statuses that say nothing of the solver: the task broke around it, or was cut short.
const NOT_THE_SOLVERS: readonly TaskStatus[] = ['failed', 'interrupted'];
// Task files read between two turns of the event loop. Small files read synchronously cost a few
// microseconds each; through the thread pool each costs four round trips (open, stat, read, close), which
// made a 1,000-task scan 5 to 8 times slower than reading the same files in a plain loop.
const READS_PER_TURN = 64;

/** Reads the record in `folder`. A record without a readable `assessment.json` cannot be resumed: that is an error that says why. */
export async function scanRecord(folder: string): Promise<RecordScan> {
  const layout = new RecordLayout(folder);
  const assessment = await readAssessment(layout);
  const keys = resultKeys(assessment.tasks);
  const states: TaskState[] = [];
  for (const [index, resultKey] of keys.entries()) {
    if (index > 0 && index % READS_PER_TURN === 0) await nextTurn();
    states.push(readTask(layout, resultKey));
  }
  const scan: RecordScan = { folder, runDir: layout.runDir, assessment, resultKeys: keys, done: new Map(), damaged: [], missing: [] };
  keys.forEach((resultKey, index) => {
    const state = states[index];
    if (state.kind === 'done') scan.done.set(resultKey, state.file);
    else if (state.kind === 'damaged') scan.damaged.push({ task: resultKey, reason: state.reason });
    else scan.missing.push(resultKey);
  });
  return scan;
}

/** What a resume runs: tasks without a usable result, and with `retryFailed`, tasks that failed around the solver or were cut short. */
export function tasksToRun(scan: RecordScan, retryFailed: boolean): string[] {
  return scan.resultKeys.filter((resultKey) => {
    const file = scan.done.get(resultKey);
    return !file || (retryFailed && NOT_THE_SOLVERS.includes(file.metrics.status));
  });
}

/**
 * The Result of everything recorded, in the requested order, as one uninterrupted run would give it: its
 * time is the sum of the sessions' (a killed session lasted until its last recorded task). Every task ran
 * with the record's solver, so with the model its card declared.
 */
export function recordResult(assessment: AssessmentFile, tasks: ReadonlyMap<string, TaskRecord>): AssessmentResult {
  const keys = resultKeys(assessment.tasks);
  const model = assessment.solver.model ?? null;
  const recorded = keys.flatMap((key) => {
    const file = tasks.get(key);
    return file ? [{ ...file, model }] : [];
  });
  return aggregateResults(recorded, sessionSeconds(assessment, [...tasks.values()]), assessment.shard, assessment.draw ?? null);
}

function sessionSeconds(assessment: AssessmentFile, tasks: readonly TaskRecord[]): number {
  return assessment.sessions.reduce((total, session, index) => {
    const ends = tasks.filter((task) => task.session === index).map((task) => Date.parse(task.finished_at));
    const end = session.ended_at ? Date.parse(session.ended_at) : Math.max(Date.parse(session.started_at), ...ends);
    return total + Math.max(0, end - Date.parse(session.started_at)) / 1000;
  }, 0);
}

async function readAssessment(layout: RecordLayout): Promise<AssessmentFile> {
  const path = layout.assessmentFile;
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new RecordError(
      'RECORD_MISSING',
      `${layout.folder} is not a run record: ${error.code === 'ENOENT' ? 'it has no assessment.json' : `assessment.json cannot be read (${error.message})`}`,
    );
  });
  const value = parseJson(text);
  const read = value.ok ? assessmentFileOf(value.value) : { problem: value.reason };
  if ('problem' in read) throw new RecordError('RECORD_DAMAGED', `${path} is damaged: ${read.problem}; the record cannot be resumed`);
  return read.assessment;
}

type TaskState = { kind: 'done'; file: TaskRecord } | { kind: 'damaged'; reason: string } | { kind: 'missing' };

// The task's record under the first of its names that is there (`task.json`, or in records made before, `result.json`).
function readTask(layout: RecordLayout, resultKey: string): TaskState {
  for (const { name, path } of layout.taskRecordFiles(resultKey)) {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      return { kind: 'damaged', reason: `${name} cannot be read: ${(error as Error).message}` };
    }
    const value = parseJson(text);
    if (!value.ok) return { kind: 'damaged', reason: `${name} is ${value.reason}` };
    const read = taskRecordOf(value.value, resultKey);
    return 'problem' in read ? { kind: 'damaged', reason: `${name} ${read.problem}` } : { kind: 'done', file: read.record };
  }
  return { kind: 'missing' };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === '') return { ok: false, reason: 'empty' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `not whole JSON (${(error as Error).message})` };
  }
}
