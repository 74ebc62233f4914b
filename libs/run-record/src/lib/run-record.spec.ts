import { readFileSync } from 'node:fs';
import { cp, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { scratchFolder, trajectoryOf } from '@arvo-rca/common/testing';
import { aggregateResults, SOLVER_USAGE_FIELDS, type AssessmentResult, type SolverUsage, type TaskMetrics } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { RecordError } from './record-error';
import { recordResult, scanRecord, tasksToRun } from './record-scan';
import { RecordWriter, type NewAssessment } from './record-writer';
import { newAssessment, NO_EVIDENCE } from './testing/record.testing';

const assessment = (tasks: string[]): NewAssessment => newAssessment(tasks, { concurrency: 2 });

// A record in the first task format, as the code of 9e6ff0a wrote it (see its README): its tasks' metrics
// are the judge's own (scored, failed, interrupted, no submission), and its result.json that code's Result.
const FIRST_FORMAT = join(__dirname, '../../fixtures/task-format-1/assessments/2026-11-27_02-00-00_88b86ca9');
const firstFormat = <T>(path: string): T => JSON.parse(readFileSync(join(FIRST_FORMAT, path), 'utf8')) as T;
const judged = (folder: string): TaskMetrics => firstFormat<{ metrics: TaskMetrics }>(`tasks/${folder}/result.json`).metrics;
const submitted = judged('sample_1');
const failed = judged('sample_2');
const interrupted = judged('sample_3');
const noSubmission = judged('sample_4');

function without(value: object, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

describe('the run record', () => {
  const runDir = scratchFolder('run-record-');

  it('holds each task the moment it is written, and the tasks not yet written as missing', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1', 'sample:2', 'sample:1']));
    await writer.writeTask(taskDraft('sample:1', submitted), NO_EVIDENCE);
    await writer.writeTask(taskDraft('sample:1#2', submitted), NO_EVIDENCE);

    const scan = await scanRecord(writer.folder);

    expect(scan.resultKeys).toEqual(['sample:1', 'sample:2', 'sample:1#2']);
    expect([...scan.done.keys()]).toEqual(['sample:1', 'sample:1#2']);
    expect(scan.missing).toEqual(['sample:2']);
    expect(scan.damaged).toEqual([]);
    expect(scan.runDir).toBe(runDir());
  });

  it('reports a truncated, an empty and a foreign result task by task, and runs them again', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1', 'sample:2', 'sample:3', 'sample:4']));
    for (const task of ['sample:1', 'sample:2', 'sample:3', 'sample:4']) await writer.writeTask(taskDraft(task, submitted), NO_EVIDENCE);
    const result = (task: string): string => join(writer.folder, 'tasks', task, 'task.json');
    await truncate(result('sample_1'), 40);
    await writeFile(result('sample_2'), '');
    await writeFile(result('sample_3'), await readFile(result('sample_4')));

    const scan = await scanRecord(writer.folder);

    expect(scan.damaged).toEqual([
      { task: 'sample:1', reason: expect.stringMatching(/^task\.json is not whole JSON/) },
      { task: 'sample:2', reason: 'task.json is empty' },
      { task: 'sample:3', reason: 'task.json is the record of "sample:4", not of sample:3' },
    ]);
    expect(tasksToRun(scan, false)).toEqual(['sample:1', 'sample:2', 'sample:3']);
  });

  it('reruns infrastructure failures and interruptions only when asked, never a task the solver got wrong', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1', 'sample:2', 'sample:3']));
    await writer.writeTask(taskDraft('sample:1', failed), NO_EVIDENCE);
    await writer.writeTask(taskDraft('sample:2', interrupted), NO_EVIDENCE);
    await writer.writeTask(taskDraft('sample:3', noSubmission), NO_EVIDENCE);

    const scan = await scanRecord(writer.folder);

    expect(tasksToRun(scan, false)).toEqual([]);
    expect(tasksToRun(scan, true)).toEqual(['sample:1', 'sample:2']);
  });

  it('gives the Result of the recorded tasks in the requested order, whichever session wrote them', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1', 'sample:2']));
    await writer.writeTask(taskDraft('sample:2', submitted), NO_EVIDENCE);
    const resumed = await RecordWriter.resume(runDir(), writer.folder, { tasks: 1, retryFailed: false });
    await resumed.writeTask(taskDraft('sample:1', failed), NO_EVIDENCE);
    const scan = await scanRecord(writer.folder);

    const result = recordResult(scan.assessment, scan.done);

    const expected = aggregateResults(
      ['sample:1', 'sample:2'].map((task) => ({
        task_id: task,
        model: 'baseline',
        metrics: scan.done.get(task)?.metrics as TaskMetrics,
        run: { seconds: 1, commands: 2, failed_commands: 0, attempts: 1 },
      })),
      0,
    );
    expect({ ...result, time_used: 0 }).toEqual(expected);
    expect(scan.assessment.sessions).toHaveLength(2);
    expect([...scan.done.values()].map((task) => [task.task, task.session])).toEqual([
      ['sample:1', 1],
      ['sample:2', 0],
    ]);
  });

  it('keeps the paths of files in the run directory relative to it, and others as they are', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1']));
    const evidence = {
      ...NO_EVIDENCE,
      crashReport: 'ERROR: AddressSanitizer',
      trajectory: { path: join(runDir(), 'trajectories', 't.traj.json') },
      log: '/elsewhere/sample_1.log',
    };
    await writer.writeTask(taskDraft('sample:1', submitted), evidence);

    const task = (await scanRecord(writer.folder)).done.get('sample:1');

    expect(task?.files).toEqual({
      crash_report: `assessments/${writer.id}/tasks/sample_1/crash.txt`,
      fix: null,
      submission: null,
      sources: null,
      trajectory: 'trajectories/t.traj.json',
      log: '/elsewhere/sample_1.log',
    });
    expect(await readFile(join(runDir(), task?.files.crash_report ?? ''), 'utf8')).toBe('ERROR: AddressSanitizer');
  });

  it("keeps the trajectory the solver sent in the task's folder, so that it reads with the solver's files out of reach", async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1']));
    const document = trajectoryOf('THOUGHT: done');
    await writer.writeTask(taskDraft('sample:1', submitted), { ...NO_EVIDENCE, trajectory: { path: '/solver/host/t.traj.json', document } });

    const task = (await scanRecord(writer.folder)).done.get('sample:1');

    expect(task?.files.trajectory).toBe(`assessments/${writer.id}/tasks/sample_1/trajectory.json`);
    expect(JSON.parse(await readFile(join(runDir(), task?.files.trajectory ?? ''), 'utf8'))).toEqual(document);
  });

  it("reads a record of the first task format (camelCase run figures): it resumes and gives the Result its own code gave, that Result's usage sums now the model's means, and intervals beside its means", async () => {
    const scan = await scanRecord(FIRST_FORMAT);

    expect(scan.damaged).toEqual([]);
    expect(scan.done.get('sample:1')?.run).toEqual({ seconds: 12.34, commands: 5, failed_commands: 2, attempts: 1 });
    expect(scan.done.get('sample:1')?.finish_reason).toBeNull();
    expect(tasksToRun(scan, true)).toEqual(['sample:2', 'sample:3']);
    // Its code summed the usage at the top level; one task reported any, so its means are those sums.
    const earlier = firstFormat<AssessmentResult & SolverUsage>('result.json');
    const { models, n_with_usage, task_metrics, confidence, ...rest } = recordResult(scan.assessment, scan.done);
    const usage = Object.fromEntries(SOLVER_USAGE_FIELDS.map((field) => [field, earlier[field]]));
    expect(models).toEqual([{ name: 'baseline', ...usage }]);
    expect(n_with_usage).toBe(1);
    // Made before draws were kept: it says it drew nothing.
    expect(rest).toEqual({ ...without(earlier, [...SOLVER_USAGE_FIELDS, 'task_metrics']), draw: null });
    // One task of four scored: the interval of the file accuracy starts at none scored, and reaches past the mean.
    expect(confidence.intervals.file_acc_mean?.[0]).toBe(0);
    expect(confidence.intervals.file_acc_mean?.[1]).toBeGreaterThan(rest.file_acc_mean);
    // Each task's entry is its own code's, with the model that ran it.
    expect(Object.values(task_metrics).map((task) => task.model)).toEqual(['baseline', 'baseline', 'baseline', 'baseline']);
    expect(Object.fromEntries(Object.entries(task_metrics).map(([key, task]) => [key, without(task, ['model'])]))).toEqual(earlier.task_metrics);
  });

  it('resumes a record made before task.json had its name: its tasks read from result.json, and a task run again from the task.json beside it', async () => {
    const folder = join(runDir(), 'assessments', basename(FIRST_FORMAT));
    await cp(FIRST_FORMAT, folder, { recursive: true });
    const writer = await RecordWriter.resume(runDir(), folder, { tasks: 2, retryFailed: true });
    await writer.writeTask(taskDraft('sample:2', submitted), NO_EVIDENCE);

    const scan = await scanRecord(folder);

    expect(await readdir(join(folder, 'tasks', 'sample_2'))).toEqual(['result.json', 'task.json']);
    expect(scan.damaged).toEqual([]);
    expect(scan.done.get('sample:2')).toMatchObject({ session: 1, metrics: submitted });
    expect(scan.done.get('sample:1')?.run).toEqual({ seconds: 12.34, commands: 5, failed_commands: 2, attempts: 1 });
    expect(tasksToRun(scan, true)).toEqual(['sample:3']);
  });

  it('writes the run figures in snake_case, in the current task format', async () => {
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1']));
    await writer.writeTask(taskDraft('sample:1', failed), NO_EVIDENCE);

    const written = JSON.parse(await readFile(join(writer.folder, 'tasks', 'sample_1', 'task.json'), 'utf8'));

    expect(written).toMatchObject({ format: 'arvo-rca-task-2', finish_reason: 'finished', run: { seconds: 1, commands: 2, failed_commands: 0, attempts: 1 } });
  });

  it('refuses a folder that is no record, and a damaged assessment.json, naming the problem', async () => {
    await expect(scanRecord(runDir())).rejects.toThrow(new RecordError('RECORD_MISSING', `${runDir()} is not a run record: it has no assessment.json`));
    const writer = await RecordWriter.create(runDir(), assessment(['sample:1']));
    await truncate(join(writer.folder, 'assessment.json'), 10);

    await expect(scanRecord(writer.folder)).rejects.toThrow(/assessment\.json is damaged: not whole JSON .*; the record cannot be resumed/);
  });
});
