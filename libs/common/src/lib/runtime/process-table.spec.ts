import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLOCK_TICKS_PER_S, ProcessTable } from './process-table';

function pidOfAnExitedProcess(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('ProcessTable', () => {
  const processes = new ProcessTable();

  it('names this process by host, pid and start time', () => {
    const self = processes.self();

    expect(self).toMatchObject({ host: hostname(), pid: process.pid });
    expect(Math.abs((self.started ?? 0) - (Date.now() / 1000 - process.uptime()))).toBeLessThanOrEqual(2);
  });

  it('reads start times in whole seconds since the epoch', () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const startedS = processes.startTimeS(child.pid ?? 0);

      expect(Number.isInteger(startedS)).toBe(true);
      expect(Math.abs((startedS ?? 0) - Date.now() / 1000)).toBeLessThanOrEqual(2);
      expect(processes.startTimeS(pidOfAnExitedProcess())).toBeUndefined();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('tells a live process from a dead one', () => {
    expect(processes.exists(process.pid)).toBe(true);
    expect(processes.exists(pidOfAnExitedProcess())).toBe(false);
  });

  it('tells a running process from a dead one, from a later process that reuses its pid and from one on another host', () => {
    const self = processes.self();
    const started = self.started ?? 0;

    expect(processes.isRunning(self)).toBe(true);
    expect(processes.isRunning({ ...self, started: started + 1 })).toBe(true);
    expect(processes.isRunning({ host: self.host, pid: self.pid })).toBe(true);
    expect(processes.isRunning({ ...self, pid: pidOfAnExitedProcess() })).toBe(false);
    expect(processes.isRunning({ ...self, started: started - 3600 })).toBe(false);
    expect(processes.isRunning({ ...self, host: `not-${hostname()}` })).toBe(false);
    expect(processes.isRunning({ ...self, pid: 0 })).toBe(false);
  });

  it('checks a pid against a start time in seconds, within rounding', () => {
    const startedS = processes.startTimeS(process.pid) ?? 0;

    expect(processes.isRunningSince(process.pid, startedS)).toBe(true);
    expect(processes.isRunningSince(process.pid, startedS - 2)).toBe(true);
    expect(processes.isRunningSince(process.pid, startedS - 3600)).toBe(false);
    expect(processes.isRunningSince(process.pid)).toBe(true);
    expect(processes.isRunningSince(pidOfAnExitedProcess())).toBe(false);
  });

  describe("a process's /proc/<pid>/stat", () => {
    const children: ChildProcess[] = [];
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'process-table-'))));
    afterEach(() => {
      children.splice(0).forEach((child) => child.kill('SIGKILL'));
      rmSync(dir, { recursive: true, force: true });
    });
    const started = (command: string, args: string[]): number => {
      const child = spawn(command, args, { stdio: 'ignore' });
      children.push(child);
      return child.pid ?? 0;
    };

    it('reads the name, however odd, the state, the parent and the group', async () => {
      // A command name with spaces and parentheses, where a split on spaces or on the first ')' goes wrong.
      const odd = join(dir, 'a) (b c');
      copyFileSync('/bin/sleep', odd);
      spawnSync('chmod', ['+x', odd]);
      const pid = started(odd, ['30']);
      await sleep(100);

      expect(processes.stat(pid)).toMatchObject({
        pid,
        name: 'a) (b c',
        state: expect.stringMatching(/^[RS]$/),
        ppid: process.pid,
        pgid: processes.stat(process.pid)?.pgid,
      });
      expect(processes.stats().map((stat) => stat.pid)).toEqual(expect.arrayContaining([pid, process.pid]));
      expect(processes.childrenOf(process.pid)).toContain(pid);
      expect(processes.stat(pidOfAnExitedProcess())).toBeUndefined();
    });

    it("counts a process's CPU in clock ticks, and that of the children it waited for apart", async () => {
      // A fixed amount of work in a child the shell waits for, then the shell becomes a sleep that burns none.
      const since = performance.now();
      const startedAtS = Date.now() / 1000;
      const pid = started('sh', ['-c', `sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; exec sleep 30`]);
      for (let waited = 0; processes.stat(pid)?.name !== 'sleep'; waited += 50) {
        if (waited > 20_000) throw new Error('the shell did not become a sleep within 20 s');
        await sleep(50);
      }
      const stat = processes.stat(pid);
      const wallTicks = ((performance.now() - since) / 1000) * CLOCK_TICKS_PER_S;

      expect(stat?.childrenCpuTicks).toBeGreaterThanOrEqual(5);
      expect(stat?.childrenCpuTicks).toBeLessThanOrEqual(wallTicks);
      expect(stat?.cpuTicks).toBeLessThan(stat?.childrenCpuTicks ?? 0);
      expect(Math.abs((processes.startTimeS(pid) ?? 0) - startedAtS)).toBeLessThanOrEqual(2);
    });

    it('tells a live process from a zombie and from one that is gone', async () => {
      // The exec'd sleep never reaps the `true` its shell started: it stays a zombie.
      const pid = started('sh', ['-c', 'true & exec sleep 30']);
      await sleep(300);
      const [zombie] = processes.childrenOf(pid);

      expect(processes.stat(zombie)?.state).toBe('Z');
      expect(processes.exists(zombie)).toBe(true);
      expect(processes.runs(zombie)).toBe(false);
      expect(processes.runs(pid)).toBe(true);
      expect(processes.runs(pidOfAnExitedProcess())).toBe(false);
    });
  });

  describe('killMarked', () => {
    const children: ChildProcess[] = [];
    const sleeper = (env: NodeJS.ProcessEnv): ChildProcess => {
      const child = spawn('sleep', ['600'], { stdio: 'ignore', env: { ...process.env, ...env } });
      children.push(child);
      return child;
    };
    afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

    it('kills every process whose environment holds the marker, and no other', async () => {
      const marker = `marker-${process.pid}-${Date.now()}`;
      const marked = [sleeper({ PROCESS_TABLE_MARK: marker }), sleeper({ PROCESS_TABLE_MARK: marker })];
      const other = sleeper({ PROCESS_TABLE_MARK: `${marker}-other` });
      const exits = marked.map((child) => once(child, 'exit'));

      expect(await processes.killMarked('PROCESS_TABLE_MARK', marker)).toBe(2);
      expect((await Promise.all(exits)).map(([, signal]) => signal)).toEqual(['SIGKILL', 'SIGKILL']);
      expect(processes.exists(other.pid ?? 0)).toBe(true);
      expect(await processes.killMarked('PROCESS_TABLE_MARK', marker)).toBe(0);
    });
  });
});
