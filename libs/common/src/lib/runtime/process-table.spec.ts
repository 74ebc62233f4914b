import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import { ProcessTable } from './process-table';

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
    expect(processes.isAlive(process.pid)).toBe(true);
    expect(processes.isAlive(pidOfAnExitedProcess())).toBe(false);
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
      expect(processes.isAlive(other.pid ?? 0)).toBe(true);
      expect(await processes.killMarked('PROCESS_TABLE_MARK', marker)).toBe(0);
    });
  });
});
