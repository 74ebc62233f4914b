import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createDockerClient } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { watchMachineCpu } from './machine-cpu';

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
        Entrypoint: ['sh', '-c', 'end=$(( $(date +%s) + 2 )); while [ "$(date +%s)" -lt "$end" ]; do :; done'],
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
