import { randomUUID } from 'node:crypto';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { engineKind } from '../engine/engine-kind.testing';
import { FakeRegistry } from './fake-registry.testing';
import { ImagePuller } from './image-puller';
import { removeImage } from './sandbox-fixtures.testing';
import { sampleImageTag } from './sample-image.testing';

describeWithDocker('ImagePuller against the engine', () => {
  const docker = createDockerClient();
  const puller = new ImagePuller(DockerEngine.fromEnvironment());

  it('leaves an image that is there alone', async () => {
    const lines: string[] = [];

    expect(await puller.ensure(sampleImageTag('1'), 10, { say: (line) => lines.push(line) })).toBe('present');
    expect(lines).toEqual([]);
  });

  it('pulls a missing image, reporting progress lines', async () => {
    const registry = new FakeRegistry();
    const image = `${await registry.listen()}/arvo-test:${randomUUID().slice(0, 8)}`;
    const lines: string[] = [];
    try {
      expect(await puller.ensure(image, 60, { say: (line) => lines.push(line) })).toBe('pulled');
      expect((await docker.getImage(image).inspect()).RepoTags).toContain(image);
      expect(lines[0]).toBe(`image ${image} is missing; pulling it (limit 60 s)`);
      // Docker tells each layer's size and end; podman's compat API gives no size for a layer this small.
      if (engineKind(await docker.version()) === 'docker') {
        expect(lines).toContain(`pulling ${image}: 1/1 layers, 116 B of 116 B`);
        expect(lines[lines.length - 1]).toMatch(/^image .* pulled \(116 B downloaded in [\d.]+ s\)$/);
      } else {
        expect(lines[lines.length - 1]).toMatch(/^image .* pulled \((116 B downloaded )?in [\d.]+ s\)$/);
      }
    } finally {
      await removeImage(docker, image);
      await registry.close();
    }
  }, 60_000);

  it("fails with the engine's reason and the image it tried when the pull fails", async () => {
    const registry = new FakeRegistry();
    const image = `${await registry.listen()}/no-such-image:${randomUUID().slice(0, 8)}`;
    await registry.close(); // nobody answers on that port any more
    const failure = puller.ensure(image, 30);

    await expect(failure).rejects.toMatchObject({ code: 'IMAGE_PULL_FAILED', image });
    await expect(failure).rejects.toThrow(new RegExp(`^pulling ${image.replace(/[.:]/g, '\\$&')} failed: .*connection refused`));
  }, 40_000);

  it('gives up a pull that outlives its deadline', async () => {
    const registry = new FakeRegistry(true);
    const image = `${await registry.listen()}/slow:${randomUUID().slice(0, 8)}`;
    try {
      const started = Date.now();
      await expect(puller.ensure(image, 1)).rejects.toMatchObject({ code: 'IMAGE_PULL_TIMEOUT', image, message: `pulling ${image} did not finish within 1 s` });
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await registry.close();
    }
  }, 20_000);
});
