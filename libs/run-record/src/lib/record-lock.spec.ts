import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { ProcessTable } from '@arvo-rca/common';
import { scratchFolder } from '@arvo-rca/common/testing';
import { RecordError } from './record-error';
import { RECORD_LOCK_FILE } from './record-layout';
import { RecordLock } from './record-lock';

const ROOT = resolve(__dirname, '../../../..');
const HOLDER = join(__dirname, 'record-lock-holder.testing.ts');
const owner = { host: hostname(), processes: new ProcessTable() };

/** record-lock-holder.testing.ts as a real process: another green agent sharing the folder. */
class Holder {
  readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string) => void)[] = [];
  readonly exited: Promise<void>;

  constructor(folder: string) {
    this.child = spawn(process.execPath, ['--import', 'tsx', HOLDER, folder, owner.host], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.base.json') },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.exited = new Promise((done) => this.child.once('exit', () => done()));
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
  }

  line(): Promise<string> {
    const known = this.lines.shift();
    return known === undefined ? new Promise((done) => this.waiting.push(done)) : Promise.resolve(known);
  }
}

async function refusal(folder: string): Promise<RecordError> {
  const error = await RecordLock.take(folder, 'resume', owner).catch((caught: unknown) => caught);
  if (!(error instanceof RecordError)) throw new Error(`the lock was taken: ${String(error)}`);
  return error;
}

describe('the lock of a record', () => {
  const folder = scratchFolder('record-lock-');

  it('is held by one process at a time: another green process is refused with the reason until it releases the lock', async () => {
    const holder = new Holder(folder());
    expect(await holder.line()).toBe('held');

    const error = await refusal(folder());

    expect(error.code).toBe('RECORD_BUSY');
    expect(error.message).toMatch(
      new RegExp(
        `^record ${folder()} is being resumed by another assessment \\(started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); send the resume again when it has finished$`,
      ),
    );
    expect(JSON.parse(readFileSync(join(folder(), RECORD_LOCK_FILE), 'utf8'))).toMatchObject({ pid: holder.child.pid, host: owner.host, kind: 'resume' });
    holder.child.stdin.end();
    expect(await holder.line()).toBe('released');
    await holder.exited;
    expect(existsSync(join(folder(), RECORD_LOCK_FILE))).toBe(false);
    const lock = await RecordLock.take(folder(), 'resume', owner);
    await lock.release();
  }, 60_000);

  it('left by a process that died (its pid dead on this host) is stale and taken over', async () => {
    const holder = new Holder(folder());
    expect(await holder.line()).toBe('held');
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(join(folder(), RECORD_LOCK_FILE))).toBe(true);

    const lock = await RecordLock.take(folder(), 'run', owner);

    expect(JSON.parse(readFileSync(join(folder(), RECORD_LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, kind: 'run' });
    await lock.release();
    expect(existsSync(join(folder(), RECORD_LOCK_FILE))).toBe(false);
  }, 60_000);

  it('goes to one of many takes at once; the others name the session that holds it', async () => {
    const takes = await Promise.allSettled(Array.from({ length: 8 }, () => RecordLock.take(folder(), 'run', owner)));

    const held = takes.flatMap((take) => (take.status === 'fulfilled' ? [take.value] : []));
    expect(held).toHaveLength(1);
    for (const take of takes.filter((one) => one.status === 'rejected')) {
      expect((take as PromiseRejectedResult).reason).toMatchObject({
        code: 'RECORD_BUSY',
        message: expect.stringContaining('is being written by its first run'),
      });
    }
    await held[0].release();
  });

  it('of another host is judged by its age: refused while its holder touches it, taken over once it is left untouched', async () => {
    const path = join(folder(), RECORD_LOCK_FILE);
    const exited = spawnSync('true');
    const theirs = { host: 'elsewhere@0123456789ab', pid: exited.pid, started: null, since: new Date().toISOString(), kind: 'resume', nonce: 'aa' };
    writeFileSync(path, JSON.stringify(theirs));
    expect((await refusal(folder())).message).toContain(`(started ${theirs.since})`);

    const old = new Date(Date.now() - 5 * 60_000);
    utimesSync(path, old, old);
    const lock = await RecordLock.take(folder(), 'resume', owner);

    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ host: owner.host, pid: process.pid });
    await lock.release();
  });

  it('is released once, and never removes a lock that another holder took over meanwhile', async () => {
    const path = join(folder(), RECORD_LOCK_FILE);
    const lock = await RecordLock.take(folder(), 'resume', owner);
    const other = { host: owner.host, pid: process.pid, started: null, since: new Date().toISOString(), kind: 'resume', nonce: 'bb' };
    writeFileSync(path, JSON.stringify(other));

    await lock.release();
    await lock.release();

    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual(other);
  });
});
