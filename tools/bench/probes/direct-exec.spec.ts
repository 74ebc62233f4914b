import { randomUUID } from 'node:crypto';
import { createDockerClient, LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type Docker from 'dockerode';
import { cliExec, dockerodeExec } from './direct-exec';

describeWithDocker('the reference exec paths', () => {
  const docker = createDockerClient();
  const owner = `bench-direct-exec-${randomUUID()}`;
  let container: Docker.Container;

  beforeAll(async () => {
    container = await docker.createContainer({
      Image: sampleImageTag('1'),
      Entrypoint: ['sleep'],
      Cmd: ['120'],
      Labels: { [LABEL_OWNER]: owner },
      HostConfig: { NetworkMode: 'none' },
    });
    await container.start();
  });

  afterAll(async () => {
    await container?.remove({ force: true });
    expect(await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
  });

  it('returns the exit code of the command, by plain dockerode', async () => {
    expect(await dockerodeExec(container, ['true'])).toBe(0);
    expect(await dockerodeExec(container, ['sh', '-c', 'echo noise; echo more >&2; exit 3'])).toBe(3);
  });

  it('returns the exit code of the command, by the docker CLI', async () => {
    expect(await cliExec(container.id, ['true'])).toBe(0);
    expect(await cliExec(container.id, ['sh', '-c', 'exit 5'])).toBe(5);
  });
});
