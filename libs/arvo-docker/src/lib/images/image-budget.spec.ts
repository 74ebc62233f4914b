import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBytes } from '@arvo-rca/common';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { ImageBudget } from './image-budget';
import { ImageLedger } from './image-ledger';
import { ImagePuller } from './image-puller';
import { NeededImages } from './needed-images';
import { pushGeneratedImage, TestRegistry, ThrottledProxy } from './registry.testing';
import { removeImage } from './sandbox-fixtures.testing';

const MIB = 1024 ** 2;
// Each image: the base (Debian, on the engine already, as the OSS-Fuzz base is for ARVO) and one layer of
// random data, which no compression shrinks; pulled through a throttle so that each pull takes seconds.
const BASE = 'debian:bookworm-slim';
const LAYER_MIB = 150;
const BYTES_PER_SECOND = 40 * MIB;
const NAMES = ['a', 'b', 'c', 'd', 'kept'] as const;

describeWithDocker('the image disk budget, against a real registry behind a throttle', () => {
  const docker = createDockerClient();
  const engine = DockerEngine.fromEnvironment();
  const run = `budget-${process.pid}`;
  let registry: TestRegistry;
  let proxy: ThrottledProxy;
  let cacheDir: string;
  const image = (name: (typeof NAMES)[number]): string => `${proxy.address}/${run}/${name}:1`;

  beforeAll(async () => {
    registry = await TestRegistry.start();
    proxy = await ThrottledProxy.start(registry.address, BYTES_PER_SECOND);
    await Promise.all(NAMES.map((name) => pushGeneratedImage(registry.address, `${run}/${name}:1`, LAYER_MIB, BASE)));
  }, 180_000);

  afterAll(async () => {
    // Whatever a test cut short by a timeout left of this run's images, by name.
    const left = await docker.listImages({ filters: { reference: [`*/${run}/*`] } });
    for (const tag of left.flatMap((info) => info.RepoTags ?? [])) await removeImage(docker, tag);
    await proxy?.close();
    await registry?.stop();
  }, 60_000);

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'image-budget-'));
    // An image the run does not pull: on the engine before, from the same registry.
    await pullAsFixture(image('kept'));
  }, 60_000);

  afterEach(async () => {
    for (const name of NAMES) await removeImage(docker, image(name));
    await rm(cacheDir, { recursive: true, force: true });
  }, 60_000);

  function puller(budgetBytes: number, needed = new NeededImages(), warnings: string[] = []): { puller: ImagePuller; ledger: ImageLedger } {
    const ledger = new ImageLedger(cacheDir);
    const budget = new ImageBudget(engine, ledger, needed, budgetBytes, { warn: (line) => warnings.push(line) });
    return { puller: new ImagePuller(engine, budget), ledger };
  }

  async function pullAsFixture(name: string): Promise<void> {
    await engine.pullImage(name, new AbortController().signal, () => undefined);
  }

  async function onEngine(): Promise<string[]> {
    const present = await Promise.all(NAMES.map(async (name) => ((await engine.imageSize(image(name)).catch(() => undefined)) === undefined ? [] : [name])));
    return present.flat();
  }

  // The engine's own account (/system/df): what the images pulled in this test take, each counted whole.
  async function pulledBytesOnEngine(pulled: string[]): Promise<number> {
    const { images } = await engine.imageDiskUsage();
    return images.filter((info) => info.tags.some((tag) => pulled.includes(tag))).reduce((sum, info) => sum + info.bytes, 0);
  }

  it('keeps the images it pulled within the budget on the engine, removing the least recently used first', async () => {
    const imageBytes = await engine.imageSize(image('kept'));
    const budget = Math.round(2.4 * imageBytes);
    const { puller: images, ledger } = puller(budget);
    const lines: string[] = [];
    const pulled = (['a', 'b', 'c', 'd'] as const).map(image);
    const peaks: number[] = [];
    const layersBefore = (await engine.imageDiskUsage()).layersBytes;
    const ensure = async (name: (typeof NAMES)[number]): Promise<void> => {
      const started = Date.now();
      const outcome = await images.ensure(image(name), 120, { say: (line) => lines.push(line) });
      peaks.push(await pulledBytesOnEngine(pulled));
      // All layers on the engine, beside what other work on it adds meanwhile: shown, not asserted.
      const layersGrown = (await engine.imageDiskUsage()).layersBytes - layersBefore;
      console.log(
        `${name}: ${outcome} in ${Date.now() - started} ms; pulled images take ${peaks.at(-1)} of ${budget} bytes; engine's layers grew ${layersGrown} bytes`,
      );
    };

    await ensure('kept');
    await ensure('a');
    await ensure('b');
    expect(await onEngine()).toEqual(['a', 'b', 'kept']);
    await ensure('c');
    expect(await onEngine()).toEqual(['b', 'c', 'kept']);
    await ensure('b'); // used again: c is now the least recently used
    await ensure('d');

    expect(await onEngine()).toEqual(['b', 'd', 'kept']);
    expect(Math.max(...peaks)).toBeLessThanOrEqual(budget);
    expect((await ledger.list()).map((entry) => entry.image)).toEqual([image('b'), image('d')]);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^image budget: removed ${image('a')} \\(`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^image budget: removed ${image('c')} \\(`)));
  }, 180_000);

  it('never removes an image a remaining task of a running assessment needs, and says the budget is passed', async () => {
    const needed = new NeededImages();
    const { puller: images } = puller(Math.round(1.2 * (await engine.imageSize(image('kept')))), needed);
    const lines: string[] = [];
    await images.ensure(image('a'), 120);
    const hold = needed.hold([image('a')]);

    await images.ensure(image('b'), 120, { say: (line) => lines.push(line) });
    expect(await onEngine()).toEqual(['a', 'b', 'kept']);
    expect(lines).toContainEqual(expect.stringMatching(/^image budget: the images pulled here take .* pulling .* anyway$/));

    hold.releaseAll();
    await images.ensure(image('c'), 120);
    expect(await onEngine()).toEqual(['c', 'kept']);
  }, 180_000);

  it('never removes an image that a malformed entry of a tampered images-pulled.json names', async () => {
    const imageBytes = await engine.imageSize(image('kept'));
    await pullAsFixture(image('a'));
    await pullAsFixture(image('c'));
    // Hand-edited: c was not pulled by the agent, but its entry is well-formed, so the budget counts it as its own.
    const entries = [
      `{"image": "${image('kept')}", "bytes": "${imageBytes}", "lastUsed": 1}`,
      `{"image": "${image('a')}", "bytes": -1, "lastUsed": 2}`,
      `{"image": "${image('a')}", "bytes": 1e999, "lastUsed": 3}`,
      `{"image": "${image('kept')}", "bytes": ${imageBytes}}`,
      `{"image": "${image('c')}", "bytes": ${imageBytes}, "lastUsed": 4}`,
    ];
    await writeFile(join(cacheDir, 'images-pulled.json'), `{"images": [${entries.join(', ')}]}`);
    const { puller: images, ledger } = puller(Math.round(1.5 * imageBytes));
    const lines: string[] = [];

    await images.ensure(image('b'), 120, { say: (line) => lines.push(line) });

    expect(await onEngine()).toEqual(['a', 'b', 'kept']);
    expect(lines.filter((line) => line.startsWith('image budget: removed'))).toEqual([
      expect.stringMatching(new RegExp(`^image budget: removed ${image('c')} \\(`)),
    ]);
    expect((await ledger.list()).map((entry) => entry.image)).toEqual([image('b')]);
    expect(JSON.parse(await readFile(join(cacheDir, 'images-pulled.json'), 'utf8'))).toEqual({
      images: [{ image: image('b'), bytes: expect.any(Number), lastUsed: expect.any(Number) }],
    });
  }, 180_000);

  it('runs a task whose image alone passes the budget, and says so', async () => {
    const { puller: images, ledger } = puller(10 * MIB);
    const lines: string[] = [];

    expect(await images.ensure(image('a'), 120, { say: (line) => lines.push(line) })).toBe('pulled');
    const size = formatBytes(await engine.imageSize(image('a')));
    expect(lines).toContainEqual(`image budget: ${image('a')} alone takes ${size}, more than the budget of 10.0 MiB; its task runs anyway`);
    expect(await ledger.has(image('a'))).toBe(true);
    expect(await ledger.has(image('kept'))).toBe(false);
  }, 120_000);
});
