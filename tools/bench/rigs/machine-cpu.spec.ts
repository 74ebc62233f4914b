import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createDockerClient } from '@arvo-rca/arvo-docker';
import { ProcessTable } from '@arvo-rca/common';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { existsSync } from 'node:fs';
import { watchMachineCpu } from './machine-cpu';
import { watchAgentsCpu, watchCoreTime } from './process-cpu';

function burn(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin
  }
}

describe("the machine's CPU over a stretch", () => {
  it('counts what this process burns as busy, within what the cores can give', () => {
    const watch = watchMachineCpu();
    burn(500);
    const cpu = watch.stop();

    expect(cpu.seconds).toBeGreaterThanOrEqual(0.5);
    // The clock ticks every 10 ms; the process may have waited for a core part of the time.
    expect(cpu.busy_s).toBeGreaterThanOrEqual(0.2);
    expect(cpu.busy_s).toBeLessThanOrEqual(cpu.cores * cpu.seconds + 0.05);
    expect(cpu.steal_s).toBeGreaterThanOrEqual(0);
  });
});

describeWithDocker("the containers' part of the machine's CPU", () => {
  const docker = createDockerClient();
  const name = `arvo-rca-bench-cpu-${randomUUID().slice(0, 8)}`;

  afterAll(async () => {
    await docker
      .getContainer(name)
      .remove({ force: true })
      .catch(() => undefined);
  });

  (existsSync('/sys/fs/cgroup/cpuacct/docker') ? it : it.skip)(
    'counts what a container burns, where the engine uses cgroup v1',
    async () => {
      const watch = watchMachineCpu();
      const container = await docker.createContainer({
        name,
        Image: sampleImageTag('1'),
        // A fixed amount of work (about 1 s of CPU here), not a span of wall time that a loaded machine would leave idle.
        Entrypoint: ['sh', '-c', 'i=0; while [ "$i" -lt 600000 ]; do i=$((i + 1)); done'],
        HostConfig: { NetworkMode: 'none' },
      });
      await container.start();
      await container.wait();
      const cpu = watch.stop();

      expect(cpu.containers_s).toBeGreaterThanOrEqual(0.3);
      expect(cpu.containers_s).toBeLessThanOrEqual(cpu.busy_s + 0.05);
    },
    60_000,
  );
});

describe("the agents' CPU, their helpers' included", () => {
  it("counts a process's own CPU, and as its helpers' a child that ended and one still running", async () => {
    // Each spins until it has used 0.4 s of CPU, however long a loaded machine makes that take.
    const spin = (seconds: number): string =>
      `const since = process.cpuUsage(); for (let used = 0; used < ${seconds * 1e6}; ) { const u = process.cpuUsage(since); used = u.user + u.system; }`;
    const agent = spawn(
      process.execPath,
      [
        '-e',
        `const { spawn, spawnSync } = require('node:child_process');
         ${spin(0.4)}
         spawnSync(process.execPath, ['-e', ${JSON.stringify(spin(0.4))}]);
         spawn(process.execPath, ['-e', ${JSON.stringify(spin(0.4))} + '; setInterval(() => {}, 1000)'], { stdio: 'ignore' });
         setInterval(() => {}, 1000);`,
      ],
      { stdio: 'ignore' },
    );
    const watch = watchAgentsCpu([agent.pid ?? 0]);
    let cpu = watch.stop();
    // The agent's own 0.4 s (less what it ran before the first look), and its two helpers' 0.4 s each and their starts.
    for (const since = Date.now(); (cpu.agents_s < 0.3 || cpu.helpers_s < 0.8) && Date.now() - since < 25_000; cpu = watch.stop()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const helpers = new ProcessTable().childrenOf(agent.pid ?? 0);
    agent.kill('SIGKILL');
    for (const pid of helpers) process.kill(pid, 'SIGKILL');

    expect(cpu.agents_s).toBeGreaterThanOrEqual(0.3);
    expect(cpu.agents_s).toBeLessThan(0.8);
    expect(cpu.helpers_s).toBeGreaterThanOrEqual(0.8);
    expect(cpu.helpers_s).toBeLessThan(1.5);
  }, 30_000);
});

describe('the time a main thread ran on a core and waited for one', () => {
  it('counts a wait where two threads want one core, and nothing for a process that is not there', async () => {
    // Two spinners on core 0 share it: each runs about half the time and waits the other half.
    const spinner = () => spawn('taskset', ['-c', '0', process.execPath, '-e', 'for (;;) {}'], { stdio: 'ignore' });
    const sharing = [spinner(), spinner()];
    await new Promise((resolve) => setTimeout(resolve, 300));
    const watch = watchCoreTime([...sharing.map((child) => child.pid ?? 0), 999_999_999]);
    const since = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const times = watch.stop();
    const elapsedS = (performance.now() - since) / 1000;
    sharing.forEach((child) => child.kill('SIGKILL'));

    for (const { ran_s, waited_s } of times.slice(0, 2)) {
      expect(ran_s).toBeGreaterThan(0.02);
      expect(waited_s).toBeGreaterThan(0.3);
      expect(ran_s + waited_s).toBeLessThanOrEqual(elapsedS + 0.1);
    }
    expect(times[2]).toEqual({ ran_s: 0, waited_s: 0 });
  }, 30_000);
});
