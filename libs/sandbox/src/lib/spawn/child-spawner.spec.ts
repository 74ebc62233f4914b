import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessTable } from '@arvo-rca/common';
import { ChildSpawner, type SpawnedChild } from './child-spawner';

const ROOT = resolve(__dirname, '../../../../..');
const OWNER = join(__dirname, 'spawner-owner.testing.ts');
const env = { PATH: process.env['PATH'] ?? '' };

/** Runs spawner-owner.testing.ts as a real process of its own. */
function owner(...args: string[]) {
  return spawn(process.execPath, ['--import', 'tsx', OWNER, ...args], {
    cwd: ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.base.json') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Whether a process of that pid runs (a zombie does not). */
const alive = (pid: number): boolean => new ProcessTable().runs(pid);

async function until(condition: () => boolean, what: string | (() => string)): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited > 10_000) throw new Error(`still waiting after 10 s: ${typeof what === 'string' ? what : what()}`);
    await sleep(50);
  }
}

describe('ChildSpawner', () => {
  let spawner: ChildSpawner;
  const children: SpawnedChild[] = [];
  let dir: string;

  beforeEach(() => {
    spawner = new ChildSpawner();
    dir = mkdtempSync(join(tmpdir(), 'spawner-'));
  });

  afterEach(async () => {
    for (const child of children.splice(0)) {
      child.kill();
      child.stdin?.destroy();
      await child.ended;
    }
    const pid = spawner.pid;
    if (pid) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(command: string, args: string[]): Promise<SpawnedChild> {
    const child = await spawner.spawn(command, args, env);
    children.push(child);
    return child;
  }

  it("hands the child's stdin to its owner, and reports its exit code and the tail of its stderr", async () => {
    const child = await start('sh', ['-c', 'wc -c >&2; exit 3']);
    child.stdin?.end(Buffer.alloc(5 * 1024 * 1024, 97));
    expect(await child.ended).toEqual({ code: 3, signal: null, stderr: '5242880\n' });
    expect(child.end?.code).toBe(3);
  });

  it('starts the child from the spawner process, not from this one', async () => {
    const child = await start('sh', ['-c', 'echo $PPID >&2']);
    const { stderr } = await child.ended;
    expect(Number(stderr)).toBe(spawner.pid);
    expect(spawner.pid).not.toBe(process.pid);
  });

  it('gives the child only the environment it is given', async () => {
    const child = await start('sh', ['-c', 'env >&2']);
    const { stderr } = await child.ended;
    expect(stderr.split('\n').filter((line) => /^[A-Z_]+=/.test(line) && !line.startsWith('PWD=') && !line.startsWith('SHLVL='))).toEqual([`PATH=${env.PATH}`]);
  });

  it('keeps only the last 4,096 characters of what the child writes to stderr', async () => {
    const child = await start('sh', ['-c', 'head -c 10000 /dev/zero | tr "\\0" a >&2; echo END >&2']);
    const { stderr } = await child.ended;
    expect(stderr).toHaveLength(4096);
    expect(stderr.endsWith('aaaEND\n')).toBe(true);
  });

  it('names a command that does not exist, and gives no stdin', async () => {
    const child = await start('no-such-command-for-the-spawner', []);
    expect(child.stdin).toBeUndefined();
    expect((await child.ended).error).toMatch(/no-such-command-for-the-spawner ENOENT/);
  });

  it('kills the child with SIGKILL on kill', async () => {
    const child = await start('cat', []);
    child.kill();
    expect(await child.ended).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('ends the waits of its children with an error when the spawner dies, and starts a new spawner on the next spawn', async () => {
    const child = await start('cat', []);
    const first = spawner.pid;
    process.kill(first ?? 0, 'SIGKILL');
    expect((await child.ended).error).toBe('the spawner process stopped (SIGKILL)');
    const next = await start('sh', ['-c', 'echo $PPID >&2']);
    expect(Number((await next.ended).stderr)).toBe(spawner.pid);
    expect(spawner.pid).not.toBe(first);
  });

  it('kills what it started, and ends itself, when its owner is killed', async () => {
    const pidFile = join(dir, 'pid');
    const held = owner('hold', pidFile);
    let pids: number[] = [];
    try {
      // Whether the child wrote its pid says, on a timeout, which side the start stopped at.
      await until(
        () => existsSync(`${pidFile}.spawner`),
        () => `the owner to start its child (the child's pid written: ${existsSync(pidFile)})`,
      );
      pids = [readFileSync(pidFile, 'utf8'), readFileSync(`${pidFile}.spawner`, 'utf8')].map(Number);
      const [childPid, spawnerPid] = pids;
      expect(alive(childPid)).toBe(true);
      held.kill('SIGKILL');
      await until(() => !alive(childPid), 'the child to be killed');
      await until(() => !alive(spawnerPid), 'the spawner to end');
    } finally {
      // Whatever failed, nothing of the owner's outlives the test (its pipes would keep the test run open).
      held.kill('SIGKILL');
      for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('keeps its owner alive only while a child runs', async () => {
    const once_ = owner('once');
    let said = '';
    once_.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const [code] = (await once(once_, 'exit')) as [number | null];
    expect({ code, said }).toEqual({ code: 0, said: 'exit 0\n' });
  });
});
