import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ProcessTable } from '@arvo-rca/common';

const APP_TSCONFIG = join(__dirname, '..', '..', '..', 'tsconfig.app.json');

/** Whether `pid` is a live process (a zombie, killed and not yet reaped, is not). */
const alive = (pid: number): boolean => new ProcessTable().runs(pid);

async function until(what: string, done: () => boolean, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!done()) {
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // gone already
  }
}

describe('the CLI group watcher', () => {
  it('kills the groups it watches and removes their folders once its owner is killed with SIGKILL, and leaves the rest', async () => {
    const root = mkdtempSync(join(tmpdir(), 'cli-group-watcher-'));
    const folder = join(root, 'cli-home');
    mkdirSync(join(folder, '.claude'), { recursive: true });
    writeFileSync(join(folder, '.claude', 'settings.json'), '{}');
    const owner = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'watched-groups.testing.ts'), folder], {
      env: { ...process.env, TSX_TSCONFIG_PATH: APP_TSCONFIG },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => owner.once('exit', (_, signal) => done(signal)));
    let pids: number[] = [];
    try {
      for await (const line of createInterface({ input: owner.stdout })) {
        pids = line.split(' ').map(Number);
        break;
      }
      const [watched, unwatched, watcher] = pids;
      expect([watched, unwatched, watcher].every(alive)).toBe(true);

      owner.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      await until('the watched group to be gone', () => !alive(watched));
      await until('the watcher to exit', () => !alive(watcher));
      expect(existsSync(folder)).toBe(false);
      expect(alive(unwatched)).toBe(true);
    } finally {
      owner.kill('SIGKILL');
      for (const pid of pids) if (alive(pid)) killGroup(pid);
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
