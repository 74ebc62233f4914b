import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ProcessTable } from '@arvo-rca/common';
import { scratchFolder } from '@arvo-rca/common/testing';
import type { CurrentRunRecord } from './current-run-record';
import { CURRENT_RUN_FILE, RunDirectoryResolver } from './run-directory-resolver';
import { TaskLoggingError } from './task-logging-error';

const HOUR_MS = 3_600_000;

function pidOfAnExitedProcess(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

/** A resolver whose clock is `offsetS` seconds ahead, so that each one would name a new directory differently. */
function resolverAt(offsetS: number): RunDirectoryResolver {
  return new RunDirectoryResolver(new ProcessTable(), () => new Date(Date.now() + offsetS * 1000));
}

describe('run directory resolution', () => {
  const root = scratchFolder('task-logging-runs-');
  let logDir: string;
  beforeEach(() => {
    logDir = join(root(), 'logs');
  });

  const recordRun = (record: CurrentRunRecord): void => {
    mkdirSync(join(logDir, record.run), { recursive: true });
    writeFileSync(join(logDir, CURRENT_RUN_FILE), JSON.stringify(record));
  };
  const recorded = (): CurrentRunRecord => JSON.parse(readFileSync(join(logDir, CURRENT_RUN_FILE), 'utf8'));
  const oldRun = (creator: CurrentRunRecord['creator']): CurrentRunRecord => ({
    run: 'log_2026-01-01_00-00-00',
    createdAt: new Date(Date.now() - 3 * HOUR_MS).toISOString(),
    creator,
  });

  it("uses the launcher's LOG_RUN_DIR as it is, creating it, and records nothing", async () => {
    const runDir = join(root(), 'chosen', 'run');

    await expect(new RunDirectoryResolver().resolve({ logDir, runDir })).resolves.toBe(runDir);
    expect(readdirSync(runDir)).toEqual([]);
    expect(readdirSync(root())).toEqual(['chosen']);
  });

  it('creates a log_<time> directory for the first process and records it, with its creator, in .current_run', async () => {
    const at = new Date(2026, 10, 22, 10, 23, 37);

    const runDir = await new RunDirectoryResolver(new ProcessTable(), () => at).resolve({ logDir });

    expect(runDir).toBe(join(logDir, 'log_2026-11-22_10-23-37'));
    expect(recorded()).toEqual({ run: 'log_2026-11-22_10-23-37', createdAt: at.toISOString(), creator: new ProcessTable().self() });
  });

  it('lets a second process adopt the recorded run, even seconds later', async () => {
    const first = await resolverAt(0).resolve({ logDir });
    const second = await resolverAt(7).resolve({ logDir });

    expect(second).toBe(first);
    expect(readdirSync(logDir).sort()).toEqual([CURRENT_RUN_FILE, first.slice(logDir.length + 1)]);
  });

  it('settles many concurrent resolutions on one directory', async () => {
    const chosen = await Promise.all(Array.from({ length: 12 }, (_, i) => resolverAt(i * 2).resolve({ logDir })));

    expect(new Set(chosen).size).toBe(1);
    expect(readdirSync(logDir)).toHaveLength(2);
  });

  it('starts a new run instead of adopting one recorded hours ago by a process that is gone', async () => {
    recordRun(oldRun({ host: hostname(), pid: pidOfAnExitedProcess() }));

    const runDir = await new RunDirectoryResolver().resolve({ logDir });

    expect(runDir).not.toContain('log_2026-01-01_00-00-00');
    expect(recorded().run).toBe(runDir.slice(logDir.length + 1));
    expect(readdirSync(logDir).sort()).toEqual([CURRENT_RUN_FILE, 'log_2026-01-01_00-00-00', recorded().run].sort());
  });

  it('replaces a stale record exactly once when many resolve at the same moment, leaving no claim behind', async () => {
    recordRun(oldRun({ host: hostname(), pid: pidOfAnExitedProcess() }));

    const chosen = await Promise.all(Array.from({ length: 12 }, (_, i) => resolverAt(i * 2).resolve({ logDir })));

    expect(new Set(chosen).size).toBe(1);
    expect(readdirSync(logDir).sort()).toEqual([CURRENT_RUN_FILE, 'log_2026-01-01_00-00-00', recorded().run].sort());
  });

  it('adopts an old run whose creator still runs', async () => {
    recordRun(oldRun(new ProcessTable().self()));

    await expect(new RunDirectoryResolver().resolve({ logDir })).resolves.toBe(join(logDir, 'log_2026-01-01_00-00-00'));
  });

  it('does not take a reused pid for the creator: the start time must match too', async () => {
    recordRun(oldRun({ ...new ProcessTable().self(), started: 1 }));

    await expect(new RunDirectoryResolver().resolve({ logDir })).resolves.not.toContain('log_2026-01-01_00-00-00');
  });

  it('adopts a recent run recorded on another host, but not an old one', async () => {
    recordRun({ run: 'log_2026-01-01_00-00-01', createdAt: new Date(Date.now() - 30_000).toISOString(), creator: { host: 'other-host', pid: 1 } });
    await expect(new RunDirectoryResolver().resolve({ logDir })).resolves.toBe(join(logDir, 'log_2026-01-01_00-00-01'));

    recordRun(oldRun({ host: 'other-host', pid: 1 }));
    await expect(new RunDirectoryResolver().resolve({ logDir })).resolves.not.toContain('log_2026-01-01_00-00-00');
  });

  it('does not adopt a recorded run whose directory was deleted', async () => {
    recordRun(oldRun(new ProcessTable().self()));
    rmSync(join(logDir, 'log_2026-01-01_00-00-00'), { recursive: true });

    const runDir = await new RunDirectoryResolver().resolve({ logDir });

    expect(runDir).not.toContain('log_2026-01-01_00-00-00');
    expect(readdirSync(runDir)).toEqual([]);
  });

  it('replaces a record left empty by a creator that died before writing it', async () => {
    mkdirSync(logDir, { recursive: true });
    writeFileSync(join(logDir, CURRENT_RUN_FILE), '');
    const abandonedAt = new Date(Date.now() - 60_000);
    utimesSync(join(logDir, CURRENT_RUN_FILE), abandonedAt, abandonedAt);

    const runDir = await new RunDirectoryResolver().resolve({ logDir });

    expect(recorded().run).toBe(runDir.slice(logDir.length + 1));
  });

  it('fails with LOG_DIR_UNWRITABLE, naming the directory and the variable, when LOG_DIR cannot be created', async () => {
    writeFileSync(join(root(), 'a-file'), '');
    const badLogDir = join(root(), 'a-file', 'logs');

    const viaLogDir = await new RunDirectoryResolver().resolve({ logDir: badLogDir }).catch((error: unknown) => error);
    const viaRunDir = await new RunDirectoryResolver().resolve({ logDir, runDir: badLogDir }).catch((error: unknown) => error);

    expect(viaLogDir).toBeInstanceOf(TaskLoggingError);
    expect(viaLogDir).toMatchObject({ code: 'LOG_DIR_UNWRITABLE' });
    expect((viaLogDir as Error).message).toBe(`cannot write logs in ${badLogDir} (LOG_DIR): ENOTDIR: not a directory, mkdir '${badLogDir}'`);
    expect(viaRunDir).toMatchObject({ code: 'LOG_DIR_UNWRITABLE' });
    expect((viaRunDir as Error).message).toContain(`cannot write logs in ${badLogDir} (LOG_RUN_DIR): ENOTDIR`);
  });
});
