import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { SolverTrajectory } from '@arvo-rca/common';
import { TASK_FORMAT, type AssessmentResult, type TaskFiles, type TaskRecord, type TaskRecordDraft } from '@arvo-rca/results';
import { writeFileAtomic, writeJsonAtomic } from './atomic-file';
import { ASSESSMENT_FORMAT, RECORDS_FOLDER, SOURCES_FORMAT, type AssessmentFile, type SourceExcerpt } from './record-format';
import { taskFolderName } from './task-folder';

/** What an assessment is, as its record begins. */
export type NewAssessment = Omit<AssessmentFile, 'format' | 'id' | 'sessions' | 'started_at'>;

/** What the viewer shows of a task, kept in its folder; paths are absolute on this host (or null). */
export interface TaskEvidence {
  crashReport: string | null;
  fix: string | null;
  submission: string | null;
  sources: SourceExcerpt[] | null;
  /** The solver's trajectory: kept in the task's folder when the solver sent it, else pointed to. */
  trajectory: SolverTrajectory | null;
  log: string | null;
}

/**
 * Writes one assessment's record as it runs: `assessment.json` at the start, each task the moment it ends
 * (its files first, its `result.json` last), the Result at the end. A crash loses at most the tasks that
 * were running.
 */
export class RecordWriter {
  private constructor(
    readonly runDir: string,
    readonly folder: string,
    readonly assessment: AssessmentFile,
    private readonly session: number,
  ) {}

  get id(): string {
    return this.assessment.id;
  }

  /** Begins the record of a new assessment in `runDir`. */
  static async create(runDir: string, assessment: NewAssessment, now = new Date()): Promise<RecordWriter> {
    const id = `${stamp(now)}_${randomBytes(4).toString('hex')}`;
    const file: AssessmentFile = {
      format: ASSESSMENT_FORMAT,
      id,
      started_at: now.toISOString(),
      ...assessment,
      sessions: [{ started_at: now.toISOString(), ended_at: null, tasks: assessment.tasks.length, retry_failed: false }],
    };
    const folder = join(runDir, RECORDS_FOLDER, id);
    await mkdir(join(folder, 'tasks'), { recursive: true });
    await writeJsonAtomic(join(folder, 'assessment.json'), file);
    return new RecordWriter(runDir, folder, file, 0);
  }

  /** Adds a session to an existing record (a resume): its tasks are written beside the ones already there. */
  static async resume(runDir: string, folder: string, session: { tasks: number; retryFailed: boolean }, now = new Date()): Promise<RecordWriter> {
    const assessment = JSON.parse(await readFile(join(folder, 'assessment.json'), 'utf8')) as AssessmentFile;
    const sessions = [...assessment.sessions, { started_at: now.toISOString(), ended_at: null, tasks: session.tasks, retry_failed: session.retryFailed }];
    const file = { ...assessment, sessions };
    await writeJsonAtomic(join(folder, 'assessment.json'), file);
    return new RecordWriter(runDir, folder, file, sessions.length - 1);
  }

  /** The task's files, then its `result.json` (the draft with the session, the time and the files): a task is in the record once that file is. */
  async writeTask(draft: TaskRecordDraft, evidence: TaskEvidence, now = new Date()): Promise<TaskRecord> {
    const folder = join(this.folder, 'tasks', taskFolderName(draft.task));
    await mkdir(folder, { recursive: true });
    const inFolder = async (name: string, content: string | null): Promise<string | null> => {
      if (content === null) return null;
      await writeFileAtomic(join(folder, name), content);
      return this.fromRunDir(join(folder, name));
    };
    const files: TaskFiles = {
      crash_report: await inFolder('crash.txt', evidence.crashReport),
      fix: await inFolder('fix.diff', evidence.fix),
      submission: await inFolder('loc.json', evidence.submission),
      sources: await inFolder('sources.json', evidence.sources && `${JSON.stringify({ format: SOURCES_FORMAT, files: evidence.sources })}\n`),
      trajectory: evidence.trajectory?.document
        ? await inFolder('trajectory.json', `${JSON.stringify(evidence.trajectory.document)}\n`)
        : evidence.trajectory?.path === undefined
          ? null
          : this.fromRunDir(evidence.trajectory.path),
      log: evidence.log && this.fromRunDir(evidence.log),
    };
    const file: TaskRecord = { format: TASK_FORMAT, ...draft, session: this.session, finished_at: now.toISOString(), files };
    await writeJsonAtomic(join(folder, 'result.json'), file);
    return file;
  }

  /** This session ended by itself (its tasks ran, or were interrupted and recorded so). */
  async endSession(now = new Date()): Promise<void> {
    this.assessment.sessions[this.session] = { ...this.assessment.sessions[this.session], ended_at: now.toISOString() };
    await writeJsonAtomic(join(this.folder, 'assessment.json'), this.assessment);
  }

  /** The Result over the whole record; its file's path. */
  async writeResult(result: AssessmentResult): Promise<string> {
    const path = join(this.folder, 'result.json');
    await writeJsonAtomic(path, result);
    return path;
  }

  // Inside the run directory: relative to it. Elsewhere (a solver on another machine): as given.
  private fromRunDir(path: string): string {
    const inside = relative(this.runDir, path);
    return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
  }
}

/** `2026-11-23_22-59-01` in UTC: record ids sort by their start. */
function stamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}
