import type Docker from 'dockerode';
import { bootCommand, ContainerBoot } from './container-boot';
import type { ContainerHandle } from '../engine/container-handle';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { sampleImageTag } from '../images/sample-image.testing';

// Podman's words, as it refused an attach right after a stop on a loaded machine (while it settles the container).
const SETTLING = 'can only attach to created or running containers: container state improper';

/** The container, standing in for podman's settling: its first `refusals` attaches fail as podman's did. */
function settlingFor(container: ContainerHandle, refusals: number): { container: ContainerHandle; refused: () => number } {
  let refused = 0;
  const attach: ContainerHandle['attach'] = () => {
    if (refused >= refusals) return container.attach();
    refused += 1;
    return Promise.reject(Object.assign(new Error(`(HTTP code 500) server error - ${SETTLING}`), { statusCode: 500, json: { message: SETTLING } }));
  };
  const proxy = new Proxy(container, { get: (target, key): unknown => (key === 'attach' ? attach : Reflect.get(target, key, target)) });
  return { container: proxy, refused: () => refused };
}

describeWithDocker('ContainerBoot after a stop', () => {
  const docker = createDockerClient();
  const engine = DockerEngine.fromEnvironment();
  let container: Docker.Container;

  beforeEach(async () => {
    container = await docker.createContainer({
      Image: sampleImageTag('1'),
      ...bootCommand(120),
      OpenStdin: true,
      StdinOnce: true,
      HostConfig: { NetworkMode: 'none', Init: true },
    });
  });

  afterEach(async () => {
    await container.remove({ force: true });
  });

  it('attaches again while the engine still settles the stopped container, then boots it', async () => {
    const settling = settlingFor(engine.container(container.id), 2);

    const boot = await ContainerBoot.attachStopped(settling.container);
    await container.start();
    await boot.skip(60_000);
    boot.close();

    expect(settling.refused()).toBe(2);
    expect((await container.inspect()).State.Running).toBe(true);
  }, 60_000);

  it('does not try again when the engine refuses for any other reason', async () => {
    const gone = engine.container(`arvo-rca-no-such-container-${Date.now()}`);

    await expect(ContainerBoot.attachStopped(gone)).rejects.toMatchObject({ statusCode: 404 });
  });
});
