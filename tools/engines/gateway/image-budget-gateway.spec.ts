import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDockerClient, DockerEngine, ImageBudget, ImageLedger, ImagePuller, NeededImages } from '@arvo-rca/arvo-docker';
import { describeWithDocker, pushGeneratedImage, removeImage, TestRegistry } from '@arvo-rca/arvo-docker/testing';
import { DockerGatewayStandIn } from './docker-gateway';

const ENGINE_SOCKET = '/var/run/docker.sock';
const NAMES = ['a', 'b', 'c'];

// The gateway forwards image inspect and pull, and refuses every route it does not list with 403
// (RDI-Foundation/amber, runtime/docker-gateway src/lib.rs, `handle`: its default deny; gateway-policy.ts
// here): `DELETE /images/{name}` is among the refused.
describeWithDocker("the image disk budget behind the stand-in for AgentBeats' gateway", () => {
  const docker = createDockerClient();
  let registry: TestRegistry;
  let gateway: DockerGatewayStandIn;
  let dir: string;
  const image = (name: string): string => `${registry.address}/gateway-${process.pid}/${name}:1`;

  beforeAll(async () => {
    registry = await TestRegistry.start();
    for (const name of NAMES) await pushGeneratedImage(registry.address, `gateway-${process.pid}/${name}:1`, 4, 'debian:bookworm-slim');
    dir = await mkdtemp(join(tmpdir(), 'image-budget-gateway-'));
    gateway = new DockerGatewayStandIn({ engineSocket: ENGINE_SOCKET, owner: { component: 'spec', project: `spec-${process.pid}` } });
    await gateway.listen({ path: join(dir, 'docker.sock') });
  }, 120_000);

  afterAll(async () => {
    for (const name of NAMES) await removeImage(docker, image(name));
    await gateway?.close();
    await registry?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('says once that the engine refuses deletes, removes nothing, and goes on pulling', async () => {
    const engine = new DockerEngine({ host: `unix://${join(dir, 'docker.sock')}` });
    const warnings: string[] = [];
    const budget = new ImageBudget(engine, new ImageLedger(join(dir, 'cache')), new NeededImages(), 1024, { warn: (line) => warnings.push(line) });
    const puller = new ImagePuller(engine, budget);

    for (const name of NAMES) expect(await puller.ensure(image(name), 60)).toBe('pulled');

    expect(warnings).toEqual([
      expect.stringMatching(/^image budget: the engine refuses to delete images \(403: .*\); nothing is removed, the budget is not kept$/),
    ]);
    expect(gateway.refused.map((call) => `${call.method} ${decodeURIComponent(call.path).replace(/\?.*/, '')}`)).toEqual([`DELETE /images/${image('a')}`]);
    for (const name of NAMES) await expect(docker.getImage(image(name)).inspect()).resolves.toBeDefined();
  }, 120_000);
});
