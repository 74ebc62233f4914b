import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import { type SolverTrajectory, writeJsonAtomic } from '@arvo-rca/common';
import { TASK_FORMAT, type AssessmentResult, type TaskFiles, type TaskRecord, type TaskRecordDraft } from '@arvo-rca/results';
import { ASSESSMENT_FORMAT, SOURCES_FORMAT, type AssessmentFile, type SourceExcerpt } from './record-format';
import { RecordLayout, type TaskFolderFileName } from './record-layout';
import { writeTaskFolder, type TaskFolder, type TaskFolderFiles } from './task-folder-files';

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
 * (its files first, its record last), the Result at the end. A crash loses at most the tasks that
 * were running.
 */
export class RecordWriter {
  /** The last write of `assessment.json`: each waits for the one before, so the last change made is the one on disk. */
  private saved: Promise<void> = Promise.resolve();

  private constructor(
    readonly runDir: string,
    private readonly layout: RecordLayout,
    readonly assessment: AssessmentFile,
    private readonly session: number,
  ) {}

  get folder(): string {
    return this.layout.folder;
  }

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
    const layout = RecordLayout.of(runDir, id);
    await mkdir(layout.tasksFolder, { recursive: true });
    await writeJsonAtomic(layout.assessmentFile, file);
    return new RecordWriter(runDir, layout, file, 0);
  }

  /** Adds a session to an existing record (a resume): its tasks are written beside the ones already there. */
  static async resume(runDir: string, folder: string, session: { tasks: number; retryFailed: boolean }, now = new Date()): Promise<RecordWriter> {
    const layout = new RecordLayout(folder);
    const assessment = JSON.parse(await readFile(layout.assessmentFile, 'utf8')) as AssessmentFile;
    const sessions = [...assessment.sessions, { started_at: now.toISOString(), ended_at: null, tasks: session.tasks, retry_failed: session.retryFailed }];
    const file = { ...assessment, sessions };
    await writeJsonAtomic(layout.assessmentFile, file);
    return new RecordWriter(runDir, layout, file, sessions.length - 1);
  }

  /** The task's files, then its record (the draft with the session, the time and the files): a task is in the record once that file is. */
  async writeTask(draft: TaskRecordDraft, evidence: TaskEvidence, now = new Date()): Promise<TaskFolder> {
    const contents: TaskFolderFiles = {
      ...named('crash.txt', evidence.crashReport),
      ...named('fix.diff', evidence.fix),
      ...named('loc.json', evidence.submission),
      ...named('sources.json', evidence.sources && `${JSON.stringify({ format: SOURCES_FORMAT, files: evidence.sources })}\n`),
      ...named('trajectory.json', evidence.trajectory?.document ? `${JSON.stringify(evidence.trajectory.document)}\n` : null),
    };
    const inFolder = (name: TaskFolderFileName): string | null =>
      contents[name] === undefined ? null : this.fromRunDir(this.layout.taskFile(draft.task, name));
    const solversOwn = evidence.trajectory?.path;
    const files: TaskFiles = {
      crash_report: inFolder('crash.txt'),
      fix: inFolder('fix.diff'),
      submission: inFolder('loc.json'),
      sources: inFolder('sources.json'),
      trajectory: inFolder('trajectory.json') ?? (solversOwn === undefined ? null : this.fromRunDir(solversOwn)),
      log: evidence.log && this.fromRunDir(evidence.log),
    };
    const record: TaskRecord = { format: TASK_FORMAT, ...draft, session: this.session, finished_at: now.toISOString(), files };
    const task = { record, files: contents };
    await writeTaskFolder(this.layout, task);
    return task;
  }

  /** This session ended by itself (its tasks ran, or were interrupted and recorded so). */
  async endSession(now = new Date()): Promise<void> {
    this.assessment.sessions[this.session] = { ...this.assessment.sessions[this.session], ended_at: now.toISOString() };
    await this.save();
  }

  /** The solver's dialect, found while the assessment runs (from its first answer), joins `assessment.json`. */
  async setSolverProtocol(protocol: string, source: string): Promise<void> {
    this.assessment.solver_protocol = protocol;
    this.assessment.solver_protocol_source = source;
    await this.save();
  }

  private save(): Promise<void> {
    const write = (): Promise<void> => writeJsonAtomic(this.layout.assessmentFile, this.assessment);
    this.saved = this.saved.then(write, write);
    return this.saved;
  }

  /** The Result over the whole record; its file's path. */
  async writeResult(result: AssessmentResult): Promise<string> {
    await writeJsonAtomic(this.layout.resultFile, result);
    return this.layout.resultFile;
  }

  // Inside the run directory: relative to it. Elsewhere (a solver on another machine): as given.
  private fromRunDir(path: string): string {
    const inside = relative(this.runDir, path);
    return inside.startsWith('..') || isAbsolute(inside) ? path : inside;
  }
}

function named(name: TaskFolderFileName, content: string | null): TaskFolderFiles {
  return content === null ? {} : { [name]: content };
}

/** `2026-11-23_22-59-01` in UTC: record ids sort by their start. */
function stamp(at: Date): string {
  return at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
}
