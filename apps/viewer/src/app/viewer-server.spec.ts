import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareRecords, recordResult, RecordWriter, scanRecord } from '@arvo-rca/run-record';
import { scratchRunDir } from '@arvo-rca/run-record/testing';
import { RunDirectories } from './run-directories';
import type { Comparison, RunList, TaskLog, TaskPage, TrajectoryView } from './viewer-api';
import { finishedTask, JUDGED_METRICS, rawGet, SOURCES, writeRecord } from './viewer-records.testing';
import { ViewerServer } from './viewer-server';

const PAGE = join(__dirname, '..', 'public');

async function getJson<T>(server: ViewerServer, path: string): Promise<T> {
  const reply = await rawGet(server.url, path);
  if (reply.status !== 200) throw new Error(`${path}: ${reply.status} ${reply.body}`);
  return JSON.parse(reply.body) as T;
}

describe('the viewer over HTTP, on run records written by the record writer', () => {
  const { logDir, runDir } = scratchRunDir('viewer-', 'all', '2026-11-23_10-00-00');
  let baseline: RecordWriter;
  let model: RecordWriter;
  let server: ViewerServer;

  beforeAll(async () => {
    baseline = await writeRecord(runDir(), 'baseline', [
      { task: 'sample:1', metrics: JUDGED_METRICS.wrong, context: 'aaaa1111-one' },
      { task: 'sample:2', metrics: JUDGED_METRICS.failed, context: 'bbbb2222-two' },
      { task: 'sample:10', context: 'cccc3333-three' },
    ]);
    model = await writeRecord(
      runDir(),
      'openai/gpt-4.1',
      [{ task: 'sample:1', context: 'dddd4444-four', steps: 5 }, { task: 'sample:2' }],
      new Date('2026-11-23T11:00:00Z'),
    );
    server = await ViewerServer.start(await RunDirectories.open([runDir()]), PAGE);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('lists every record with its solver, model, tasks, means, cost per task and time, newest first', async () => {
    const list = await getJson<RunList>(server, '/api/runs');

    expect(list.unreadable).toEqual([]);
    expect(list.runs.map((run) => [run.key, run.solver.model, run.tasks, run.recorded, run.scored])).toEqual([
      [model.id, 'openai/gpt-4.1', 2, 2, 2],
      [baseline.id, 'baseline', 3, 3, 2],
    ]);
    expect(list.runs[1]).toMatchObject({ runDir: runDir(), started_at: '2026-11-23T10:00:00.000Z', means: { file_acc: 1 / 3, func_recall: 1 / 3 } });
    expect(list.runs[1].cost).toBeCloseTo(0.006);
    expect(list.runs[1].seconds).toBeGreaterThan(0);
  });

  it('finds the run directories inside a folder of them, as LOG_DIR holds them', async () => {
    const viewer = await ViewerServer.start(await RunDirectories.open([logDir()]), PAGE);
    try {
      const list = await getJson<RunList>(viewer, '/api/runs');
      expect(list.runs.map((run) => run.key)).toEqual([model.id, baseline.id]);
      expect(list.runs[0].runDir).toBe(join(logDir(), 'log_2026-11-23_10-00-00'));
    } finally {
      await viewer.close();
    }
  });

  it('shows a record of the first task format (camelCase run figures, written by 9e6ff0a) as it shows one of today', async () => {
    const firstFormat = join(__dirname, '../../../../libs/run-record/fixtures/task-format-1');
    const viewer = await ViewerServer.start(await RunDirectories.open([firstFormat]), PAGE);
    try {
      const list = await getJson<RunList>(viewer, '/api/runs');
      expect(list.runs.map((run) => [run.tasks, run.recorded, run.scored])).toEqual([[4, 4, 1]]);
      const comparison = await getJson<Comparison>(viewer, `/api/compare?runs=${list.runs[0].key}`);
      expect(comparison.runs[0].tasks.map((task) => [task.task, task.status, task.seconds, task.attempts])).toEqual([
        ['sample:1', 'scored', 12.34, 1],
        ['sample:2', 'failed', 0.5, 2],
        ['sample:3', 'interrupted', 3, 1],
        ['sample:4', 'no_submission', 30, 1],
      ]);
    } finally {
      await viewer.close();
    }
  });

  it('names a record whose assessment.json cannot be read, with the reason, and lists the others', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'viewer-broken-'));
    const viewer = await ViewerServer.start(await RunDirectories.open([folder]), PAGE);
    try {
      const whole = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }]);
      const broken = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }], new Date('2026-11-23T12:00:00Z'));
      await writeFile(join(broken.folder, 'assessment.json'), '{"format": "arvo');

      const list = await getJson<RunList>(viewer, '/api/runs');

      expect(list.runs.map((run) => run.key)).toEqual([whole.id]);
      expect(list.unreadable).toEqual([
        { folder: join(folder, 'assessments', broken.id), reason: expect.stringMatching(/assessment\.json is damaged: not whole JSON/) },
      ]);
    } finally {
      await viewer.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('compares runs task by task, in the requested order, each row with its status, scores and cost', async () => {
    const comparison = await getJson<Comparison>(server, `/api/compare?runs=${baseline.id},${model.id}`);

    expect(comparison.runs.map((run) => run.summary.key)).toEqual([baseline.id, model.id]);
    expect(comparison.runs[0].tasks.map((row) => [row.task, row.status, row.scores.line_iou])).toEqual([
      ['sample:1', 'scored', 0],
      ['sample:2', 'failed', 0],
      ['sample:10', 'scored', 1],
    ]);
    expect(comparison.runs[0].tasks[1]).toMatchObject({ detail: 'pulling the image failed', cost: 0.006, seconds: 12.5, attempts: 1 });
  });

  it("gives each run's means their 95% intervals, as the record's Result gives them", async () => {
    const list = await getJson<RunList>(server, '/api/runs');
    const scan = await scanRecord(baseline.folder);
    const { intervals } = recordResult(scan.assessment, scan.done).confidence;

    const run = list.runs.find((entry) => entry.key === baseline.id);
    expect(run?.intervals).toMatchObject({ line_iou: intervals.line_iou_mean, file_acc: intervals.file_acc_mean, rc_line_iou: intervals.rc_line_iou_mean });
    expect(run?.intervals.line_iou?.[0]).toBeLessThan(run?.means.line_iou ?? 0);
  });

  it('pairs two runs: the first as A against the second as B, on the tasks both graded', async () => {
    const comparison = await getJson<Comparison>(server, `/api/compare?runs=${baseline.id},${model.id}`);
    const single = await getJson<Comparison>(server, `/api/compare?runs=${baseline.id}`);

    const expected = compareRecords(await scanRecord(baseline.folder), await scanRecord(model.folder));
    expect(comparison.paired).toEqual({ kind: 'compared', ...expected });
    expect(comparison.paired).toMatchObject({ n_paired: 2, only_in_a: ['sample:10'], only_in_b: [] });
    expect(single.paired).toBeNull();
  });

  it('shows why two runs scored under other settings are not paired, and still shows them side by side', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'viewer-settings-'));
    const viewer = await ViewerServer.start(await RunDirectories.open([folder]), PAGE);
    try {
      const short = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }]);
      const long = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }], new Date('2026-11-23T12:00:00Z'), { TASK_TIMEOUT_S: 1800 });

      const comparison = await getJson<Comparison>(viewer, `/api/compare?runs=${short.id},${long.id}`);

      expect(comparison.runs).toHaveLength(2);
      expect(comparison.paired).toEqual({
        kind: 'refused',
        reason: 'the two runs were scored under different settings, so their scores are not comparable: TASK_TIMEOUT_S: 600 in A, 1800 in B',
      });
    } finally {
      await viewer.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('shows a task still running as missing and a damaged one with its reason, on the next request', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'viewer-running-'));
    const running = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }]);
    await writeFile(join(running.folder, 'assessment.json'), JSON.stringify({ ...running.assessment, tasks: ['sample:1', 'sample:2', 'sample:3'] }));
    await mkdir(join(running.folder, 'tasks', 'sample_3'));
    await writeFile(join(running.folder, 'tasks', 'sample_3', 'result.json'), '{"format": "arvo-rca-task-1", "task": "sam');
    const viewer = await ViewerServer.start(await RunDirectories.open([folder]), PAGE);
    try {
      const comparison = await getJson<Comparison>(viewer, `/api/compare?runs=${running.id}`);
      expect(comparison.runs[0].tasks.map((row) => [row.task, row.status])).toEqual([
        ['sample:1', 'scored'],
        ['sample:2', 'missing'],
        ['sample:3', 'damaged'],
      ]);
      expect(comparison.runs[0].tasks[2].detail).toMatch(/^result\.json is not whole JSON/);
    } finally {
      await viewer.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("shows a record copied without its run directory's trajectories and logs: the task's page says they are not there, and asking for one names the file", async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'viewer-copied-'));
    await cp(join(runDir(), 'assessments', baseline.id), join(elsewhere, 'assessments', baseline.id), { recursive: true });
    const viewer = await ViewerServer.start(await RunDirectories.open([elsewhere]), PAGE);
    try {
      const page = await getJson<TaskPage>(viewer, `/api/runs/${baseline.id}/tasks/sample:1`);
      const trajectory = await rawGet(viewer.url, `/api/runs/${baseline.id}/tasks/sample:1/trajectory`);
      const log = await rawGet(viewer.url, `/api/runs/${baseline.id}/tasks/sample:1/log`);

      expect(page).toMatchObject({ trajectory: 'missing', log: 'missing', crash_report: expect.stringContaining('AddressSanitizer'), sources: SOURCES });
      expect([trajectory.status, JSON.parse(trajectory.body)]).toEqual([
        404,
        { error: 'FILE_NOT_FOUND', message: 'trajectories/sample_1-aaaa1111-one.traj.json does not exist' },
      ]);
      expect([log.status, JSON.parse(log.body)]).toEqual([404, { error: 'FILE_NOT_FOUND', message: 'sample_1.log does not exist' }]);
    } finally {
      await viewer.close();
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('reads a record once for the requests of one page load, and afresh for the next load', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'viewer-growing-'));
    const viewer = await ViewerServer.start(await RunDirectories.open([folder]), PAGE, { scanReuseMs: 1000 });
    try {
      const growing = await writeRecord(folder, 'baseline', [{ task: 'sample:1' }]);
      const recorded = async (): Promise<number> => (await getJson<Comparison>(viewer, `/api/compare?runs=${growing.id}`)).runs[0].summary.recorded;
      expect(await recorded()).toBe(1);
      await writeFile(join(growing.folder, 'assessment.json'), JSON.stringify({ ...growing.assessment, tasks: ['sample:1', 'sample:2'] }));
      expect(await recorded()).toBe(1);
      const resumed = await RecordWriter.resume(folder, growing.folder, { tasks: 1, retryFailed: false });
      const { record, evidence } = await finishedTask(folder, { task: 'sample:2' });
      await resumed.writeTask(record, evidence);

      expect(await recorded()).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await recorded()).toBe(2);
    } finally {
      await viewer.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  it("gives a task's page: crash report, fix, answer, source lines with both marks, and its neighbours", async () => {
    const page = await getJson<TaskPage>(server, `/api/runs/${baseline.id}/tasks/${encodeURIComponent('sample:2')}`);

    expect(page.row).toMatchObject({ task: 'sample:2', status: 'failed' });
    expect(page.crash_report).toBe('==1==ERROR: AddressSanitizer: heap-buffer-overflow in sample:2');
    expect(page.fix).toContain('+  if (n > max) return -1;');
    expect(page.submission).toBeNull();
    expect(page.sources).toEqual(SOURCES);
    expect(page).toMatchObject({ trajectory: 'present', log: 'present', previous: 'sample:1', next: 'sample:10', context_id: 'bbbb2222-two' });
  });

  it('gives the trajectory as steps: thought, command, output, tokens and cost', async () => {
    const trajectory = await getJson<TrajectoryView>(server, `/api/runs/${model.id}/tasks/sample:1/trajectory`);

    expect(trajectory).toMatchObject({ model: 'openai/gpt-4.1', exit_status: 'Submitted', instance: 'Find the root cause of the crash.', closing: null });
    expect(trajectory.cost).toBeCloseTo(0.01);
    expect(trajectory.steps).toHaveLength(5);
    expect(trajectory.steps[1]).toEqual({
      index: 2,
      thought: 'THOUGHT: look at part 2.',
      command: 'sed -n 2p src/a.c',
      output: '<returncode>0</returncode>\n<output>\nline 2;\n</output>',
      returncode: 0,
      tokens: { input: 1001, output: 50, cache_read: 900, cache_write: 0 },
      cost: 0.002,
    });
  });

  it("gives the task log's lines of that task's context only, though both runs wrote to one file", async () => {
    const log = await getJson<TaskLog>(server, `/api/runs/${model.id}/tasks/sample:1/log`);

    expect(log).toEqual({
      text: '2026-11-23T10:00:01.000Z INFO  green  dddd4444 [TaskContextService] preparing sample:1',
      context: 'dddd4444',
      lines: 1,
      total_lines: 2,
      cut: false,
    });
  });

  it('serves the page and its modules under a policy that loads nothing from elsewhere', async () => {
    const index = await rawGet(server.url, '/');
    const module = await rawGet(server.url, '/app.js');

    expect(index.status).toBe(200);
    expect(index.body).toContain('<rca-viewer>');
    expect(index.headers['content-security-policy']).toBe("default-src 'self'; img-src 'self' data:");
    expect(module.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });
});
