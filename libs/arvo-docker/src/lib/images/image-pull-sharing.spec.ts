import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PullProgress } from '@arvo-rca/sandbox';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { ImageBudget } from './image-budget';
import { ImageLedger } from './image-ledger';
import { ImagePuller } from './image-puller';
import { NeededImages } from './needed-images';
import { pushGeneratedImage, TestRegistry, ThrottledProxy } from './registry.testing';
import { removeImage } from './sandbox-fixtures.testing';

const MIB = 1024 ** 2;
// The base is on the engine already; each image adds one layer of random data, pulled through a throttle in about 2 s.
const BASE = 'debian:bookworm-slim';
const LAYER_MIB = 40;
const BYTES_PER_SECOND = 20 * MIB;
const NAMES = ['shared', 'left', 'first', 'second', 'running', 'next'] as const;

describeWithDocker('image pulls shared between the tasks that need them, against a real registry behind a throttle', () => {
  const docker = createDockerClient();
  const engine = DockerEngine.fromEnvironment();
  const run = `sharing-${process.pid}`;
  let registry: TestRegistry;
  let proxy: ThrottledProxy;
  let cacheDir: string;
  const repository = (name: (typeof NAMES)[number]): string => `${run}/${name}:1`;
  const image = (name: (typeof NAMES)[number]): string => `${proxy.address}/${repository(name)}`;

  beforeAll(async () => {
    registry = await TestRegistry.start();
    proxy = await ThrottledProxy.start(registry.address, BYTES_PER_SECOND);
    await Promise.all(NAMES.map((name) => pushGeneratedImage(registry.address, repository(name), LAYER_MIB, BASE)));
  }, 180_000);

  afterAll(async () => {
    for (const name of NAMES) await removeImage(docker, image(name));
    await proxy?.close();
    await registry?.stop();
  }, 60_000);

  beforeEach(async () => {
    cacheDir = await mkdtemp(join(tmpdir(), 'image-sharing-'));
  });

  afterEach(async () => {
    await rm(cacheDir, { recursive: true, force: true });
  });

  const onEngine = async (name: (typeof NAMES)[number]): Promise<boolean> => (await engine.imageSize(image(name)).catch(() => undefined)) !== undefined;

  it('pulls an image that two tasks need at once one time, and both hear how far it is', async () => {
    const puller = new ImagePuller(engine);
    const heard: { lines: string[]; figures: PullProgress[] }[] = [
      { lines: [], figures: [] },
      { lines: [], figures: [] },
    ];
    const watch = (index: number) => ({
      say: (line: string) => heard[index].lines.push(line),
      progress: (pull: PullProgress) => heard[index].figures.push(pull),
    });

    const first = puller.ensure(image('shared'), 60, watch(0));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = puller.ensure(image('shared'), 60, watch(1));

    expect(await Promise.all([first, second])).toEqual(['pulled', 'pulled']);
    expect(proxy.pullsOf(repository('shared'))).toBe(1);
    expect(heard[0].lines[0]).toBe(`image ${image('shared')} is missing; pulling it (limit 60 s)`);
    expect(heard[1].lines[0]).toBe(`image ${image('shared')} is being pulled already (ahead, or for another task); waiting for what is left of it`);
    for (const { lines, figures } of heard) {
      // Two layers: the base, on the engine already, and the one downloaded.
      expect(figures.at(-1)).toMatchObject({ image: image('shared'), layers: 2, layersDone: 2 });
      expect(figures.at(-1)?.bytesDone).toBeGreaterThan(LAYER_MIB * MIB * 0.9);
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^pulling ${escape(image('shared'))}: \\d/2 layers, [\\d.]+ [KM]iB of [\\d.]+ MiB$`)));
      expect(lines.at(-1)).toMatch(new RegExp(`^image ${escape(image('shared'))} pulled \\([\\d.]+ MiB downloaded in [\\d.]+ s\\)$`));
    }
    expect(await puller.ensure(image('shared'), 60)).toBe('present');
  }, 60_000);

  it('cancels a pull that nobody waits for any more, and a later need pulls it afresh', async () => {
    const puller = new ImagePuller(engine);
    const stop = [new AbortController(), new AbortController()];
    const figures: PullProgress[] = [];
    const waits = stop.map((controller) => puller.ensure(image('left'), 60, { signal: controller.signal, progress: (pull) => figures.push(pull) }));
    while (figures.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));

    stop[0].abort();
    await expect(waits[0]).rejects.toMatchObject({ code: 'IMAGE_PULL_CANCELED' });
    expect(puller.pulling).toEqual([image('left')]);
    stop[1].abort();
    await expect(waits[1]).rejects.toMatchObject({ code: 'IMAGE_PULL_CANCELED' });

    expect(puller.pulling).toEqual([]);
    // The engine gives the cancelled pull up: the image never arrives.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await onEngine('left')).toBe(false);
    expect(await puller.ensure(image('left'), 60)).toBe('pulled');
    expect(proxy.pullsOf(repository('left'))).toBe(2);
  }, 60_000);

  it('begins a pull ahead only once no task waits for a pull of its own, and pulls ahead at once what is there', async () => {
    const puller = new ImagePuller(engine);
    const said: string[] = [];
    const running = puller.ensure(image('running'), 60);
    let runningDone = false;
    void running.then(() => (runningDone = true));
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(await puller.ahead(BASE, 60)).toBe('present');
    const next = puller.ahead(image('next'), 60, { say: (line) => said.push(line) });
    // While the running task's pull goes on (about 2 s through the throttle), the pull ahead has not asked the registry.
    while (!runningDone) {
      expect(proxy.pullsOf(repository('next'))).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await running).toBe('pulled');
    expect(await next).toBe('pulled');
    expect(proxy.pullsOf(repository('next'))).toBe(1);
    expect(said[0]).toBe(`image ${image('next')} is missing; pulling it ahead once no other pull is under way`);
    expect(said[1]).toBe(`image ${image('next')} is missing; pulling it (limit 60 s)`);
  }, 60_000);

  it('gives up a pull ahead that waits for the running pulls when its window closes, and asks the registry nothing', async () => {
    // Both gone first: a removal takes seconds on a busy engine, and the running pull must still be under way below.
    await removeImage(docker, image('running'));
    await removeImage(docker, image('next'));
    const puller = new ImagePuller(engine);
    const running = puller.ensure(image('running'), 60);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const closed = new AbortController();
    const before = proxy.pullsOf(repository('next'));
    const next = puller.ahead(image('next'), 60, { signal: closed.signal });
    // Long enough for a pull begun at once to have asked the registry for its manifest.
    await new Promise((resolve) => setTimeout(resolve, 500));
    closed.abort();

    await expect(next).rejects.toMatchObject({ code: 'IMAGE_PULL_CANCELED' });
    expect(await running).toBe('pulled');
    expect(proxy.pullsOf(repository('next'))).toBe(before);
  }, 60_000);

  it('pulls ahead only within the budget, while a task that needs its image now pulls it anyway', async () => {
    const needed = new NeededImages();
    const ledger = new ImageLedger(cacheDir);
    const puller = new ImagePuller(engine, new ImageBudget(engine, ledger, needed, 1, { warn: () => undefined }));
    // Both images are still needed by a remaining task: the budget may remove neither.
    const hold = needed.hold([image('first'), image('second')]);
    try {
      expect(await puller.ahead(image('first'), 60)).toBe('pulled');
      expect(await puller.ahead(image('second'), 60)).toBe('no-room');
      expect(await onEngine('second')).toBe(false);
      expect(await puller.ensure(image('second'), 60)).toBe('pulled');
      expect((await ledger.list()).map((entry) => entry.image).sort()).toEqual([image('first'), image('second')].sort());
    } finally {
      hold.releaseAll();
    }
  }, 60_000);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
