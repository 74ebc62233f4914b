import { randomUUID } from 'node:crypto';
import { createDockerClient, LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type Docker from 'dockerode';
import { startsPerSecond, watchStarts } from './many-tasks-rig';

// More events than the engine keeps (256), as a burst's removals or a run's commands make.
const FLOOD = 300;

describeWithDocker("the engine's account of a burst of starts", () => {
  const docker = createDockerClient();
  const owner = `bench-many-rig-${randomUUID()}`;
  const tag = `arvo-rca-bench-rig-${randomUUID().slice(0, 8)}`;

  afterAll(async () => {
    const ours = await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } });
    await Promise.all(ours.map((info) => docker.getContainer(info.Id).remove({ force: true })));
    for (const lane of [0, 1, 2, 3]) {
      await docker
        .getImage(`${tag}:flood-${lane}`)
        .remove({ noprune: true })
        .catch(() => undefined);
    }
    expect(await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
  });

  it("counts every start of the burst, and its pace, though the engine's own log has moved past them by the end", async () => {
    const watch = await watchStarts(docker, owner);
    const containers: Docker.Container[] = [];
    for (let index = 0; index < 3; index += 1) {
      const container = await docker.createContainer({
        Image: sampleImageTag('1'),
        Entrypoint: ['sleep'],
        Cmd: ['120'],
        Labels: { [LABEL_OWNER]: `${owner}:${index}` },
        HostConfig: { NetworkMode: 'none' },
      });
      containers.push(container);
      await container.start();
    }
    // The burst's removals and whatever else the engine did meanwhile: tags and untags are the quickest.
    await Promise.all(containers.map((container) => container.remove({ force: true })));
    const flood = async (lane: number): Promise<void> => {
      for (let index = 0; index < FLOOD / 8; index += 1) {
        await docker.getImage(sampleImageTag('1')).tag({ repo: tag, tag: `flood-${lane}` });
        await docker.getImage(`${tag}:flood-${lane}`).remove({ noprune: true });
      }
    };
    await Promise.all([0, 1, 2, 3].map(flood));
    const starts = await watch.stop();

    expect(starts).toHaveLength(3);
    expect(startsPerSecond(starts)).toBeGreaterThan(0);
    expect(startsPerSecond(starts)).toBeLessThan(Infinity);
  }, 120_000);
});
