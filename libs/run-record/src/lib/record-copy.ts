// A record that a green agent elsewhere writes (in a container, on another machine), kept in this run
// directory as its files arrive: the same id and layout, each file written atomically by the writer's own
// functions, so that the copy reads as a record at every moment (a resume, the viewer, a comparison).
import { mkdir, readFile } from 'node:fs/promises';
import { resultKeys, type AssessmentResult } from '@arvo-rca/results';
import { writeJsonAtomic } from '@arvo-rca/common';
import { assessmentFileOf } from './assessment-reader';
import { RecordError } from './record-error';
import type { AssessmentFile } from './record-format';
import { RecordLayout } from './record-layout';
import { writeTaskFolder, type TaskFolder } from './task-folder-files';

// A record id as RecordWriter makes it (`2026-11-23_22-59-01_ab12cd34`): a folder name, never a path.
const RECORD_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

export class RecordCopy {
  private constructor(
    private readonly layout: RecordLayout,
    private assessment: AssessmentFile,
  ) {}

  get folder(): string {
    return this.layout.folder;
  }

  get id(): string {
    return this.assessment.id;
  }

  /**
   * Begins the copy of the record whose `assessment.json` is `assessment`, in `runDir`. Undefined when
   * `runDir` already holds this session of the record: the green agent writes into this very folder, and
   * there is nothing to copy.
   */
  static async begin(runDir: string, assessment: AssessmentFile): Promise<RecordCopy | undefined> {
    if (!RECORD_ID.test(assessment.id)) throw new RecordError('RECORD_DAMAGED', `${JSON.stringify(assessment.id)} is not the id of a run record`);
    const layout = RecordLayout.of(runDir, assessment.id);
    if (await holdsSession(layout, assessment)) return undefined;
    await mkdir(layout.tasksFolder, { recursive: true });
    await writeJsonAtomic(layout.assessmentFile, assessment);
    return new RecordCopy(layout, assessment);
  }

  /** The record's `assessment.json` as it is now (a session ended). */
  async writeAssessment(assessment: AssessmentFile): Promise<void> {
    if (assessment.id !== this.id) throw new RecordError('RECORD_DAMAGED', `assessment.json of record ${assessment.id} came for record ${this.id}`);
    this.assessment = assessment;
    await writeJsonAtomic(this.layout.assessmentFile, assessment);
  }

  /**
   * A task's files, then its record. A task held here already as it comes (a resume sends the tasks
   * of earlier sessions again) is not written again; false then.
   */
  async writeTask(task: TaskFolder): Promise<boolean> {
    const key = task.record.task;
    if (!resultKeys(this.assessment.tasks).includes(key)) throw new RecordError('RECORD_DAMAGED', `record ${this.id} has no task ${key}`);
    if (await this.holds(task)) return false;
    await writeTaskFolder(this.layout, task);
    return true;
  }

  /** The Result over the whole record; its file's path. */
  async writeResult(result: AssessmentResult): Promise<string> {
    await writeJsonAtomic(this.layout.resultFile, result);
    return this.layout.resultFile;
  }

  // The task's record as this copy holds it already, under either name a record has given it.
  private async holds(task: TaskFolder): Promise<boolean> {
    for (const { path } of this.layout.taskRecordFiles(task.record.task)) {
      const held = await readFile(path, 'utf8').catch(() => undefined);
      if (held !== undefined) return held === `${JSON.stringify(task.record, null, 2)}\n`;
    }
    return false;
  }
}

// The green agent wrote this session's assessment.json here just before it sent it: the folder is its own.
async function holdsSession(layout: RecordLayout, assessment: AssessmentFile): Promise<boolean> {
  const text = await readFile(layout.assessmentFile, 'utf8').catch(() => undefined);
  if (text === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return false;
  }
  const read = assessmentFileOf(value);
  const latest = assessment.sessions.at(-1)?.started_at;
  return 'assessment' in read && read.assessment.id === assessment.id && read.assessment.sessions.some((session) => session.started_at === latest);
}
