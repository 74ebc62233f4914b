import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { scratchFolder, trajectoryOf } from '@arvo-rca/common/testing';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { failedMetrics, taskDraft } from '@arvo-rca/results/testing';
import { RecordCopy } from './record-copy';
import { recordResult, scanRecord } from './record-scan';
import { RecordWriter, type TaskEvidence } from './record-writer';
import { newAssessment } from './testing/record.testing';
import { readTaskFolder } from './task-folder-files';

// A task that failed around the solver, as the judge records it (rca-eval's failedTask): zero scores, the reason.
const FAILED = failedMetrics('no image');
const trajectory = trajectoryOf('THOUGHT: the bound is off\n```bash\ncat src/index.c\n```');

// Every file a task's folder can hold, the log outside the record as the green agent's own run directory has it.
const evidence = (runDir: string): TaskEvidence => ({
  crashReport: 'ERROR: AddressSanitizer: heap-buffer-overflow — ünïcode\n',
  fix: '--- a/src/index.c\n+++ b/src/index.c\n@@ -60,1 +60,1 @@\n-a\n+b\n',
  submission: '{"locations": []}',
  sources: [{ path: 'src/index.c', start: 58, lines: ['int a;', 'int b;'], fix: [{ start: 60, end: 60 }], predicted: [{ start: 59, end: 60, rank: 1 }] }],
  trajectory: { path: '/solver/t.traj.json', document: trajectory },
  log: join(runDir, 'sample_1.log'),
});

const finished = (task: string): TaskRecordDraft => taskDraft(task, FAILED);

/** Every file under `dir`, by its path from there, with its content. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return new Map(await Promise.all(files.sort().map(async (file): Promise<[string, string]> => [relative(dir, file), await readFile(file, 'utf8')])));
}

describe('a copy of a run record written elsewhere', () => {
  const greenDir = scratchFolder('record-green-');
  const runnerDir = scratchFolder('record-runner-');

  it("is the record file for file, under the same id, once it has the header, each task's folder and the Result", async () => {
    const writer = await RecordWriter.create(greenDir(), newAssessment(['sample:1', 'sample:2', 'sample:1']));
    const copy = await RecordCopy.begin(runnerDir(), structuredClone(writer.assessment));
    const written = [];
    for (const task of ['sample:1', 'sample:2', 'sample:1#2']) written.push(await writer.writeTask(finished(task), evidence(greenDir())));
    for (const task of written) await copy?.writeTask(JSON.parse(JSON.stringify(task)));
    await writer.endSession();
    await copy?.writeAssessment(structuredClone(writer.assessment));
    const result = recordResult(writer.assessment, new Map(written.map((task) => [task.record.task, task.record])));
    await writer.writeResult(result);
    const file = await copy?.writeResult(JSON.parse(JSON.stringify(result)));

    expect(copy?.folder).toBe(join(runnerDir(), 'assessments', writer.id));
    expect(file).toBe(join(runnerDir(), 'assessments', writer.id, 'result.json'));
    expect(await filesUnder(join(runnerDir(), 'assessments'))).toEqual(await filesUnder(join(greenDir(), 'assessments')));
    const scan = await scanRecord(copy?.folder ?? '');
    expect([scan.done.size, scan.missing, scan.damaged]).toEqual([3, [], []]);
    // Its paths are the record's own, from the run directory: the task's files are there, its log is not.
    const files = scan.done.get('sample:1')?.files;
    expect(files?.trajectory).toBe(`assessments/${writer.id}/tasks/sample_1/trajectory.json`);
    expect(await readFile(join(runnerDir(), files?.crash_report ?? ''), 'utf8')).toBe(evidence(greenDir()).crashReport);
    expect(files?.log).toBe('sample_1.log');
  });

  it('copies nothing when the run directory is the one the green agent writes this session into: there is nothing to copy', async () => {
    const writer = await RecordWriter.create(greenDir(), newAssessment(['sample:1']));

    expect(await RecordCopy.begin(greenDir(), structuredClone(writer.assessment))).toBeUndefined();
    // A resume's new session in that same folder: the green agent wrote it there too.
    const resumed = await RecordWriter.resume(greenDir(), writer.folder, { tasks: 1, retryFailed: false });
    expect(await RecordCopy.begin(greenDir(), structuredClone(resumed.assessment))).toBeUndefined();
  });

  it("goes on with a copy kept earlier on a resume: its new session's header, the tasks it lacks, and none it holds written again", async () => {
    const writer = await RecordWriter.create(greenDir(), newAssessment(['sample:1', 'sample:2']));
    const first = await RecordCopy.begin(runnerDir(), structuredClone(writer.assessment));
    const one = await writer.writeTask(finished('sample:1'), evidence(greenDir()));
    await first?.writeTask(structuredClone(one));
    const held = await stat(join(first?.folder ?? '', 'tasks', 'sample_1', 'task.json'));
    // The runner died; the green agent ran sample:2 alone, and is asked to resume.
    const two = await writer.writeTask(finished('sample:2'), evidence(greenDir()));
    const resumed = await RecordWriter.resume(greenDir(), writer.folder, { tasks: 0, retryFailed: false });

    const copy = await RecordCopy.begin(runnerDir(), structuredClone(resumed.assessment));
    const wrote = [];
    for (const record of [one.record, two.record]) wrote.push(await copy?.writeTask(await readTaskFolder(writer.folder, record)));

    expect(copy).toBeDefined();
    expect(wrote).toEqual([false, true]);
    expect((await stat(join(copy?.folder ?? '', 'tasks', 'sample_1', 'task.json'))).ino).toBe(held.ino);
    expect(await filesUnder(join(runnerDir(), 'assessments'))).toEqual(await filesUnder(join(greenDir(), 'assessments')));
  });

  it('refuses a task its record does not list, a header of another record, and an id that is a path', async () => {
    const writer = await RecordWriter.create(greenDir(), newAssessment(['sample:1']));
    const copy = await RecordCopy.begin(runnerDir(), structuredClone(writer.assessment));
    const other = await RecordWriter.create(greenDir(), newAssessment(['sample:2']), new Date(0));
    const stray = await other.writeTask(finished('sample:2'), evidence(greenDir()));

    await expect(copy?.writeTask(stray)).rejects.toThrow(`record ${writer.id} has no task sample:2`);
    await expect(copy?.writeAssessment(other.assessment)).rejects.toThrow(`assessment.json of record ${other.id} came for record ${writer.id}`);
    await expect(RecordCopy.begin(runnerDir(), { ...writer.assessment, id: '../../elsewhere' })).rejects.toThrow(
      '"../../elsewhere" is not the id of a run record',
    );
    expect(await readdir(join(runnerDir(), 'assessments'))).toEqual([writer.id]);
  });
});
