import { statfs } from 'node:fs/promises';
import { type Sandbox, SandboxError } from '@arvo-rca/sandbox';
import { settledWithin } from '@arvo-rca/sandbox/testing';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { useLimitsRig } from './limits-rig.testing';

const MIB = 1024 ** 2;

describeWithDocker("the tasks' disk: each task's limit, and the running tasks' total", () => {
  const { docker, factory, sandboxOf, ourContainers } = useLimitsRig('arvo-disk-limits-', { commandTimeoutS: 30 });

  it('stops a task whose container fallocates 1 GiB under a 256 MiB limit within a look of the write, as the green agent stops it', async () => {
    let began = 0;
    const breaches: { ms: number; detail: string }[] = [];
    let stopped: Promise<void> | undefined;
    const sandbox = await sandboxOf(factory({ diskBytes: 256 * MIB }), (detail) => {
      breaches.push({ ms: performance.now() - began, detail });
      stopped = sandbox.stop();
    });
    await sandbox.start();
    began = performance.now();
    expect(await sandbox.exec('fallocate -l 1G /tmp/burst && echo written')).toMatchObject({ kind: 'ran', returncode: 0, output: 'written\n' });
    const deadline = performance.now() + 10_000;
    while (breaches.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await stopped;

    // Far from the limit the watchdog looks every 2 s (diskCheckIntervalS); no look can come between one
    // system call and its end, so what one call writes lands whole: the engine's storage quota alone stops it.
    expect(breaches).toEqual([{ ms: expect.any(Number), detail: expect.stringMatching(/wrote 1\.0 GiB, past its disk limit of 256\.0 MiB$/) }]);
    expect(breaches[0].ms).toBeLessThan(3_000);
    expect(await ourContainers()).not.toContain(`/${sandbox.name}`);
  }, 60_000);

  it('catches a steady writer close to the limit: looks come faster as the writes near it', async () => {
    const breaches: string[] = [];
    const sandbox = await sandboxOf(factory({ diskBytes: 256 * MIB }), (detail) => breaches.push(detail));
    await sandbox.start();
    try {
      // 16 MiB every 0.1 s, for 2 s past the limit: a look every 2 s would find it up to 320 MiB past.
      const writer = 'for i in $(seq 1 28); do head -c 16M /dev/zero > /tmp/part$i; sleep 0.1; done';
      const run = sandbox.exec(writer);
      const deadline = performance.now() + 15_000;
      while (breaches.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await run;

      const written = Number(/wrote ([\d.]+) MiB/.exec(breaches[0] ?? '')?.[1]);
      expect(written).toBeGreaterThanOrEqual(256);
      // Caught while the writer still wrote (it writes 28 × 16 MiB in all). How soon the looks come near the
      // limit is disk-watchdog.spec's (nextDiskCheckMs) and how far past it a writer gets is the bench's
      // (disk_limit): a machine busy with other suites stretches every look here.
      expect(written).toBeLessThan(28 * 16);
    } finally {
      await sandbox.stop();
    }
  }, 60_000);

  it('runs no more tasks at once than the total holds shares of: the others wait for a share, and the log says why once', async () => {
    const log: string[] = [];
    // Two shares of 512 MiB in 1.2 GiB (TASKS_DISK_TOTAL): the third task waits for one.
    const made = factory({ diskBytes: 512 * MIB, diskTotalBytes: 1229 * MIB }, log);
    const progress = new Map<Sandbox, string[]>();
    const sandboxes = await Promise.all(
      [1, 2, 3].map(async () => {
        const lines: string[] = [];
        const sandbox = await sandboxOf(made, undefined, lines);
        progress.set(sandbox, lines);
        return sandbox;
      }),
    );
    const started: Sandbox[] = [];
    const starts = sandboxes.map((sandbox) => sandbox.start().then(() => void started.push(sandbox)));
    try {
      // Which two get their shares first is the engine's doing: the third is whichever is left.
      const deadline = performance.now() + 30_000;
      while (started.length < 2 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const waiting = sandboxes.filter((sandbox) => !started.includes(sandbox));
      expect(started).toHaveLength(2);
      expect(await settledWithin(starts[sandboxes.indexOf(waiting[0])], 2_000)).toBe('pending');
      // The waiting task's own log says why, in its progress (the runner's live view).
      expect(progress.get(waiting[0])).toContainEqual(
        `${waiting[0].name}: waiting for a disk share: 2 task(s) of 512.0 MiB fill 1.2 GiB in total (TASKS_DISK_TOTAL)`,
      );
      expect(log).toContainEqual(
        'disk shares: 1.2 GiB in total (TASKS_DISK_TOTAL) holds 2 task(s) of 512.0 MiB (CONTAINER_DISK) at once; 2 running, the others wait for a share',
      );

      await started[0].stop();
      await Promise.all(starts);
      expect(await waiting[0].exec('echo started')).toMatchObject({ kind: 'ran', output: 'started\n' });
      expect(log.filter((line) => line.includes('wait for a share'))).toHaveLength(1);
    } finally {
      await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
    }
  }, 90_000);

  // An assessment whose disk held two shares, at two tasks at once with two more made ahead, hung for good:
  // the two made ahead took both shares first, and waited for the turns of the two that waited for a share.
  it('gives a container made ahead of its turn no share until its turn: the running task starts first, and the turn waits for its share', async () => {
    const made = factory({ diskBytes: 512 * MIB, diskTotalBytes: 700 * MIB });
    const waiting: string[] = [];
    const [ahead, running] = [await sandboxOf(made, undefined, waiting, 60), await sandboxOf(made)];
    try {
      await ahead.start();
      expect(await settledWithin(running.start(), 30_000)).toBeUndefined();
      const turn = ahead.takeTurn();
      expect(await settledWithin(turn, 1_000)).toBe('pending');
      expect(waiting).toContainEqual(`${ahead.name}: waiting for a disk share: 1 task(s) of 512.0 MiB fill 700.0 MiB in total (TASKS_DISK_TOTAL)`);
      await running.stop();
      expect(await settledWithin(turn, 30_000)).toBeUndefined();
      expect(await ahead.exec('echo its turn')).toMatchObject({ kind: 'ran', output: 'its turn\n' });
    } finally {
      await Promise.all([ahead.stop(), running.stop()]);
    }
  }, 90_000);

  it("takes the free disk of the engine's data root as the total when none is given, and says once which limit holds a task's writes", async () => {
    const info = (await docker.info()) as { DockerRootDir: string; Driver: string; DriverStatus: [string, string][] };
    const disk = await statfs(info.DockerRootDir);
    // A limit of two thirds of what is free: one task at once.
    const log: string[] = [];
    const made = factory({ diskBytes: Math.floor((disk.bavail * disk.bsize * 2) / 3) }, log);
    const [first, second] = await Promise.all([sandboxOf(made), sandboxOf(made)]);
    try {
      await first.start();
      const next = second.start();
      expect(await settledWithin(next, 2_000)).toBe('pending');
      expect(log).toContainEqual(expect.stringMatching(new RegExp(`free on ${info.DockerRootDir} \\(the engine's data root\\) holds 1 task\\(s\\)`)));
      // And, once, which limit holds a task's writes on this engine: its driver and backing filesystem, from its info.
      const backing = info.DriverStatus.find(([key]) => key === 'Backing Filesystem')?.[1];
      const quota = (info.Driver === 'overlay2' && backing === 'xfs') || ['btrfs', 'zfs'].includes(info.Driver);
      const said = log.filter((line) => line.startsWith('disk limit: '));
      expect(said).toEqual([expect.stringContaining(`${info.Driver}${backing ? ` on ${backing}` : ''} ${quota ? 'can hold' : 'has no storage quota'}`)]);
      // A waiting start that is stopped takes no share, and leaves nothing.
      await second.stop();
      await expect(next).rejects.toMatchObject({ code: 'SANDBOX_NOT_STARTED' });
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 60_000);

  it('refuses a task the total cannot hold a share for, naming the numbers, and leaves no container', async () => {
    const sandbox = await sandboxOf(factory({ diskBytes: 512 * MIB, diskTotalBytes: 100 * MIB }));
    const start = sandbox.start();

    await expect(start).rejects.toThrow(SandboxError);
    await expect(start).rejects.toMatchObject({
      code: 'DISK_SHARE_UNAVAILABLE',
      message:
        'a task needs a disk share of 512.0 MiB (CONTAINER_DISK), but 100.0 MiB in total (TASKS_DISK_TOTAL) holds none, with 0 task(s) running: lower CONTAINER_DISK or free disk',
    });
    expect(await ourContainers()).not.toContain(`/${sandbox.name}`);
  }, 30_000);
});
