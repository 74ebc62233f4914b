import { FolderCounter } from '@arvo-rca/sandbox';
import { rm, statfs } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { containerDiskMeter } from '../container/container-files';
import { DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { useLimitsRig } from './limits-rig.testing';

// Empty files as fast as a shell makes them: a thousand names per `touch`, about 20k files a second.
const FILE_BOMB = 'mkdir -p /tmp/bomb && cd /tmp/bomb && i=0; while :; do touch $(seq -f "f$i-%g" 1 1000); i=$((i+1)); done';

describeWithDocker("the tasks' files: each task's bound, and the host's free inodes", () => {
  const { docker, factory, sandboxOf, ourContainers } = useLimitsRig('arvo-file-limits-', { commandTimeoutS: 60 });

  it("stops a task whose container makes empty files as fast as it can, past its bound of files, long before its command's time", async () => {
    let began = 0;
    const breaches: { ms: number; detail: string }[] = [];
    let stopped: Promise<void> | undefined;
    const sandbox = await sandboxOf(factory({ diskFiles: 5_000, commandTimeoutS: 120 }), (detail) => {
      breaches.push({ ms: performance.now() - began, detail });
      stopped ??= sandbox.stop();
    });
    await sandbox.start();
    began = performance.now();
    // The command would run its 120 s: the watchdog's end of the task ends it.
    const outcome = await sandbox.exec(FILE_BOMB).catch((error: unknown) => error);
    const endedMs = performance.now() - began;
    await stopped;

    expect(breaches).toEqual([
      { ms: expect.any(Number), detail: expect.stringMatching(/^the task's container made [\d,]+ files, past its limit of 5,000 \(CONTAINER_FILES\)$/) },
    ]);
    const made = Number(/made ([\d,]+) files/.exec(breaches[0].detail)?.[1].replace(/,/g, ''));
    // Long before its command's time (a loaded machine makes the files slowly too), and within a look or two
    // of the bound: the first look, far from it, comes 2 s after the start, then looks come faster.
    expect(breaches[0].ms).toBeLessThan(60_000);
    expect(endedMs).toBeLessThan(70_000);
    expect(made).toBeGreaterThan(5_000);
    expect(made).toBeLessThan(100_000);
    expect(outcome).toBeDefined();
    expect(await ourContainers()).not.toContain(`/${sandbox.name}`);
    console.log(`file bomb: ended after ${Math.round(breaches[0].ms)} ms at ${breaches[0].detail}`);
  }, 150_000);

  it("counts a container's files from its layer's folder, and the same through the engine's /changes where that folder is not for this host", async () => {
    const engine = DockerEngine.fromEnvironment();
    const sandbox = await sandboxOf(factory({}));
    await sandbox.start();
    try {
      expect(await sandbox.exec('mkdir -p /tmp/many && cd /tmp/many && touch $(seq -f "f%g" 1 3000) && echo made')).toMatchObject({ returncode: 0 });
      const [info] = await docker.listContainers({ filters: { name: [sandbox.name] } });
      const container = engine.container(info.Id);
      const counter = new FolderCounter();
      const fromHost = await containerDiskMeter(container, counter)().finally(() => counter.close());
      const fromEngine = await containerDiskMeter(container, undefined)();
      expect(fromHost.files).toBeGreaterThan(3_000);
      expect(fromHost.files).toBeLessThan(3_000 + 1_000);
      // The engine lists the changed folders and files as the layer's folder holds them, less the folder itself.
      expect(Math.abs((fromEngine.files ?? 0) - (fromHost.files ?? 0))).toBeLessThan(20);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it("counts a container's bytes as the engine's SizeRw does from its layer's folder, with no call to the engine per look", async () => {
    const engine = DockerEngine.fromEnvironment();
    // The layer's folder is read from this host only where the engine is local.
    if (!engine.address.startsWith('unix://')) return;
    const sandbox = await sandboxOf(factory({}));
    await sandbox.start();
    // The engine reached through a socket of the test's, closed after the first look.
    const socket = join(tmpdir(), `arvo-engine-${process.pid}-${Date.now()}.sock`);
    const open = new Set<Socket>();
    const proxy = createServer((client) => {
      const upstream = connect(engine.address.slice('unix://'.length));
      for (const end of [client, upstream]) {
        open.add(end);
        end.on('error', () => undefined).on('close', () => open.delete(end));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => proxy.listen(socket, resolve));
    const counter = new FolderCounter();
    try {
      const made = 'mkdir -p /tmp/w/in && head -c 300000 /dev/zero > /tmp/w/a && ln /tmp/w/a /tmp/w/in/b && echo x > /tmp/w/in/c && echo made';
      expect(await sandbox.exec(made)).toMatchObject({ returncode: 0 });
      const [info] = await docker.listContainers({ filters: { name: [sandbox.name] } });
      const sizeRw = ((await docker.getContainer(info.Id).inspect({ size: true } as object)) as { SizeRw?: number }).SizeRw;
      const meter = containerDiskMeter(new DockerEngine({ host: `unix://${socket}` }).container(info.Id), counter);
      const first = await meter();
      proxy.close();
      for (const end of open) end.destroy();

      expect(first.bytes).toBe(sizeRw);
      expect(first.bytes).toBeGreaterThan(300_000);
      // The engine no longer answers there: the look is the host's alone.
      expect(await meter()).toEqual(first);
    } finally {
      counter.close();
      proxy.close();
      await rm(socket, { force: true });
      await sandbox.stop();
    }
  }, 60_000);

  it("refuses a task while the host's free inodes under the engine's data root are below the floor, naming them", async () => {
    const root = ((await docker.info()) as { DockerRootDir: string }).DockerRootDir;
    const disk = await statfs(root);
    // A floor just above what is free: the start is refused, and no container is made.
    const percent = Math.min(99.99, (100 * disk.ffree) / disk.files + 0.5);
    const sandbox = await sandboxOf(factory({ inodesFloor: { percent } }));

    await expect(sandbox.start()).rejects.toMatchObject({
      code: 'HOST_INODES_LOW',
      message: expect.stringMatching(
        new RegExp(`^a task cannot start: the host's free inodes on ${root} are [\\d,]+ of [\\d,]+, below the floor of [\\d,]+ \\(HOST_INODES_FLOOR\\)$`),
      ),
    });
    expect(await ourContainers()).not.toContain(`/${sandbox.name}`);
  }, 30_000);
});
