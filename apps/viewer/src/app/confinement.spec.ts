import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordWriter } from '@arvo-rca/run-record';
import { RunDirectories } from './run-directories';
import type { ApiError, RunList, TaskPage } from './viewer-api';
import { rawGet, writeRecord } from './viewer-records.testing';
import { ViewerServer } from './viewer-server';

const PAGE = join(__dirname, '..', 'public');

describe('what the viewer refuses: it reads nothing outside the run directories it was given', () => {
  let scratch: string;
  let runDir: string;
  let secret: string;
  let record: RecordWriter;
  let server: ViewerServer;

  const error = async (path: string, method = 'GET'): Promise<{ status: number; body: ApiError }> => {
    const reply = await rawGet(server.url, path, method);
    return { status: reply.status, body: reply.body ? (JSON.parse(reply.body) as ApiError) : { error: '', message: '' } };
  };

  // Rewrites a task's record so that one of its files is `path`.
  const pointTaskAt = async (task: string, field: 'trajectory' | 'log', path: string): Promise<void> => {
    const file = join(record.folder, 'tasks', task.replace(':', '_'), 'task.json');
    const result = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...result, files: { ...result.files, [field]: path } }));
  };

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'viewer-confined-'));
    runDir = join(scratch, 'run');
    secret = join(scratch, 'secret.txt');
    await mkdir(runDir);
    await writeFile(secret, '{"format": "arvo-rca-task-1", "secret": true}');
    record = await writeRecord(runDir, 'baseline', [{ task: 'sample:1' }, { task: 'sample:2' }, { task: 'sample:3' }, { task: 'sample:4' }]);
    // Every request reads the record afresh: the specs change it between requests.
    server = await ViewerServer.start(await RunDirectories.open([runDir]), PAGE, { scanReuseMs: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('answers an unknown record with 404, naming it', async () => {
    expect(await error('/api/runs/2020-01-01_00-00-00_deadbeef/tasks/sample:1')).toEqual({
      status: 404,
      body: { error: 'RECORD_NOT_FOUND', message: 'there is no run record "2020-01-01_00-00-00_deadbeef" in the run directories this viewer serves' },
    });
  });

  it('answers a task the record does not hold with 404, naming both', async () => {
    expect(await error(`/api/runs/${record.id}/tasks/sample:9`)).toEqual({
      status: 404,
      body: { error: 'TASK_NOT_FOUND', message: `run record ${record.id} has no task "sample:9"` },
    });
  });

  it.each([
    ['a record key', '/api/runs/../../../etc/tasks/passwd'],
    ['an encoded record key', '/api/runs/..%2F..%2Fetc/tasks/passwd'],
    ['a task key', () => `/api/runs/${record.id}/tasks/..%2F..%2F..%2Fsecret.txt`],
    ['a page file', '/../secret.txt'],
    ['an encoded page file', '/%2e%2e%2fsecret.txt'],
  ])('refuses .. in %s', async (_, path) => {
    const reply = await rawGet(server.url, typeof path === 'string' ? path : path());

    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('"secret": true');
  });

  it('does not serve a trajectory a symlink leads out of the run directory', async () => {
    await symlink(secret, join(runDir, 'trajectories', 'escape.traj.json'));
    await pointTaskAt('sample:2', 'trajectory', 'trajectories/escape.traj.json');

    expect(await error(`/api/runs/${record.id}/tasks/sample:2/trajectory`)).toEqual({
      status: 403,
      body: { error: 'OUTSIDE_RUN_DIRS', message: 'trajectories/escape.traj.json is outside the run directories this viewer serves' },
    });
    const page = JSON.parse((await rawGet(server.url, `/api/runs/${record.id}/tasks/sample:2`)).body) as TaskPage;
    expect(page.trajectory).toBe('outside');
  });

  it('does not serve a log the record names by an absolute path elsewhere, nor one reached by ..', async () => {
    await pointTaskAt('sample:3', 'log', secret);
    await pointTaskAt('sample:4', 'log', '../secret.txt');

    expect((await error(`/api/runs/${record.id}/tasks/sample:3/log`)).status).toBe(403);
    expect((await error(`/api/runs/${record.id}/tasks/sample:4/log`)).status).toBe(403);
  });

  it("treats a task's record linked from outside as damaged (task.json, or result.json as records made before name it), and a record folder linked from outside as no record", async () => {
    const elsewhere = await writeRecord(join(scratch, 'elsewhere'), 'stolen', [{ task: 'sample:1' }, { task: 'sample:2' }]);
    await symlink(elsewhere.folder, join(runDir, 'assessments', '2020-01-01_00-00-00_linked'));
    for (const [folder, name] of [
      ['sample_1', 'task.json'],
      ['sample_2', 'result.json'],
    ]) {
      await rm(join(record.folder, 'tasks', folder, 'task.json'));
      await symlink(join(elsewhere.folder, 'tasks', folder, 'task.json'), join(record.folder, 'tasks', folder, name));
    }

    const list = JSON.parse((await rawGet(server.url, '/api/runs')).body) as RunList;

    expect(list.runs.map((run) => run.key)).toEqual([record.id]);
    expect(list.runs[0]).toMatchObject({ recorded: 2, damaged: 2 });
    expect((await error(`/api/runs/${record.id}/tasks/sample:1`)).body.message).toBe(
      `task sample:1 of run record ${record.id} has no usable result: task.json is outside the run directories this viewer serves`,
    );
    expect((await error(`/api/runs/${record.id}/tasks/sample:2`)).body.message).toBe(
      `task sample:2 of run record ${record.id} has no usable result: result.json is outside the run directories this viewer serves`,
    );
  });

  it('lists no directory: a record or its tasks folder is not a resource', async () => {
    expect((await error(`/api/runs/${record.id}`)).status).toBe(404);
    expect((await error(`/api/runs/${record.id}/tasks`)).status).toBe(404);
    expect((await error(`/api/runs/${record.id}/tasks/sample:1/result.json`)).status).toBe(404);
  });

  it('is read-only: any method but GET and HEAD is refused', async () => {
    expect(await error('/api/runs', 'POST')).toEqual({
      status: 405,
      body: { error: 'METHOD_NOT_ALLOWED', message: 'the viewer is read-only: it answers GET and HEAD' },
    });
    expect((await error('/api/runs', 'DELETE')).status).toBe(405);
  });
});
