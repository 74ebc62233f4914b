import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, markTaskFolder } from '@arvo-rca/sandbox';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { LABEL_OWNER, LABEL_TASK_FOLDER, ownerFilter } from '../engine/labels';
import { ReaperWatch } from './reaper-watch';
import { SandboxReaper } from './sandbox-reaper';
import { sampleImageTag } from '../images/sample-image.testing';
import { useTempDir } from '../images/sandbox-fixtures.testing';

const processes = new ProcessTable();

function deadOwnerId(): string {
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return formatOwnerId({ ...currentOwner(processes), pid: Number(exited.stdout) });
}

describe('SandboxReaper, task folders', () => {
  const tmpDir = useTempDir('arvo-reaper-', 'test');

  it('removes task folders older than the longest task limit, and nothing else', async () => {
    const hourAgo = new Date(Date.now() - 3600_000);
    const old = join(tmpDir(), `arvo_14368-${randomUUID()}`);
    const fresh = join(tmpDir(), `sample_1-${randomUUID()}`);
    const foreign = join(tmpDir(), 'someone-elses-folder');
    for (const dir of [old, fresh, foreign]) await mkdir(join(dir, 'workspace'), { recursive: true });
    await utimes(old, hourAgo, hourAgo);
    await utimes(foreign, hourAgo, hourAgo);

    expect(await new SandboxReaper(processes).reapWorkspaces(tmpDir(), 1800_000)).toEqual([old]);
    await expect(stat(old)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(fresh)).isDirectory()).toBe(true);
    expect((await stat(foreign)).isDirectory()).toBe(true);
  });

  it("removes fresh task folders whose owner file names a dead owner of this host, and keeps live and other hosts' ones", async () => {
    const folders = { dead: deadOwnerId(), live: formatOwnerId(currentOwner(processes)), otherHost: `not-${hostname()}:1:1:ab`, garbled: 'not an owner id' };
    const paths = Object.fromEntries(Object.keys(folders).map((name) => [name, join(tmpDir(), `sample_1-${randomUUID()}`)]));
    for (const [name, owner] of Object.entries(folders)) {
      await mkdir(join(paths[name], 'workspace'), { recursive: true });
      await markTaskFolder(paths[name], owner);
    }
    await expect(markTaskFolder(paths.live, folders.live)).rejects.toMatchObject({ code: 'EEXIST' });

    expect(await new SandboxReaper(processes).reapWorkspaces(tmpDir(), 1800_000)).toEqual([paths.dead]);
    for (const name of ['live', 'otherHost', 'garbled']) expect((await stat(paths[name])).isDirectory()).toBe(true);
  });

  it('sweeps one at a time, and a TMP_DIR it cannot read is no error', async () => {
    const orphan = join(tmpDir(), `sample_1-${randomUUID()}`);
    await mkdir(join(orphan, 'workspace'), { recursive: true });
    await markTaskFolder(orphan, deadOwnerId());
    const watch = new ReaperWatch(
      new SandboxReaper(processes),
      { engine: undefined, tmpDir: tmpDir(), maxAgeMs: 1800_000, intervalMs: 1000 },
      { log: () => undefined, warn: () => undefined },
    );

    const first = watch.sweep();
    expect(watch.sweep()).toBe(first);
    expect((await first).workspaces).toEqual([orphan]);
    const elsewhere = new ReaperWatch(
      new SandboxReaper(processes),
      { engine: undefined, tmpDir: '/proc/1/root/nothing-here', maxAgeMs: 1000, intervalMs: 1000 },
      { log: () => undefined, warn: () => undefined },
    );
    expect((await elsewhere.sweep()).workspaces).toEqual([]);
  });

  it('does nothing when the folder does not exist yet', async () => {
    expect(await new SandboxReaper(processes).reapWorkspaces(join(tmpDir(), 'missing'), 1000)).toEqual([]);
  });
});

/** A process table in which one live process passes for dead. */
class TableWithOneDead extends ProcessTable {
  constructor(private readonly deadPid: number) {
    super();
  }

  override exists(pid: number): boolean {
    return pid !== this.deadPid && super.exists(pid);
  }
}

describeWithDocker('SandboxReaper, containers', () => {
  const docker = createDockerClient();
  // Every agent that boots reaps dead owners' containers, and other suites boot agents meanwhile: the
  // owner this suite's reaper must find dead is a live process, dead to this suite's process table only.
  const standIn = spawn('sleep', ['600'], { stdio: 'ignore' });
  const standInPid = standIn.pid ?? 0;
  const owners = {
    dead: formatOwnerId({ ...currentOwner(processes), pid: standInPid, startedAtS: processes.startTimeS(standInPid) ?? 0 }),
    live: formatOwnerId(currentOwner(processes)),
    otherHost: `not-${hostname()}:1:1:ab`,
    // Another machine driving the same engine, whose hostname is ours: its pids mean nothing here.
    sameNameElsewhere: formatOwnerId({ ...currentOwner(processes), host: `${hostname()}@000000000000`, pid: standInPid }),
  };
  const reaper = new SandboxReaper(new TableWithOneDead(standInPid));

  afterAll(async () => {
    standIn.kill('SIGKILL');
    for (const owner of Object.values(owners)) {
      for (const info of await docker.listContainers({ all: true, filters: ownerFilter(owner) })) {
        await docker.getContainer(info.Id).remove({ force: true });
      }
    }
  });

  /**
   * A running container of `owner`. With `watched`, a reaper sweeping meanwhile may remove it between its
   * create and its start (the engine then answers 404, or 409 "marked for removal"): it is returned all the
   * same, as reaped.
   */
  async function containerOf(owner: string, taskFolder?: string, watched = false): Promise<string> {
    const container = await docker.createContainer({
      Image: sampleImageTag('1'),
      Cmd: ['sleep', '60'],
      Labels: { [LABEL_OWNER]: owner, ...(taskFolder === undefined ? {} : { [LABEL_TASK_FOLDER]: taskFolder }) },
      HostConfig: { NetworkMode: 'none', Init: true },
    });
    await container.start().catch((error: { statusCode?: number }) => {
      if (!watched || (error.statusCode !== 404 && error.statusCode !== 409)) throw error;
    });
    return container.id;
  }

  async function exists(id: string): Promise<boolean> {
    return docker
      .getContainer(id)
      .inspect()
      .then(
        () => true,
        () => false,
      );
  }

  it("removes containers whose owner on this host is dead, and keeps a live owner's and other hosts', same hostname included", async () => {
    const dead = await containerOf(owners.dead);
    const live = await containerOf(owners.live);
    const otherHost = await containerOf(owners.otherHost);
    const sameNameElsewhere = await containerOf(owners.sameNameElsewhere);

    await reaper.reapContainers(DockerEngine.fromEnvironment());

    expect(await exists(dead)).toBe(false);
    expect(await exists(live)).toBe(true);
    expect(await exists(otherHost)).toBe(true);
    expect(await exists(sameNameElsewhere)).toBe(true);
  }, 30_000);

  it("removes the fresh task folder a dead owner's container was made for, and no folder of a live owner or outside TMP_DIR", async () => {
    const root = await mkdtemp('/tmp/arvo-reaper-mounts-');
    const tmpDir = join(root, 'tasks');
    const orphanTask = join(tmpDir, `sample_1-${randomUUID()}`);
    const liveTask = join(tmpDir, `sample_1-${randomUUID()}`);
    const outside = join(root, `sample_1-${randomUUID()}`);
    for (const dir of [orphanTask, liveTask, outside]) await mkdir(join(dir, 'workspace', 'shared'), { recursive: true });
    try {
      const dead = await containerOf(owners.dead, orphanTask);
      const deadOutside = await containerOf(owners.dead, outside);
      const live = await containerOf(owners.live, liveTask);

      const reaped = await reaper.reapContainers(DockerEngine.fromEnvironment(), tmpDir);

      expect(reaped.workspaces).toEqual([orphanTask]);
      expect(await exists(dead)).toBe(false);
      expect(await exists(deadOutside)).toBe(false);
      expect(await exists(live)).toBe(true);
      await expect(stat(orphanTask)).rejects.toMatchObject({ code: 'ENOENT' });
      expect((await stat(liveTask)).isDirectory()).toBe(true);
      expect((await stat(outside)).isDirectory()).toBe(true);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 30_000);

  async function gone(id: string, withinMs: number): Promise<boolean> {
    const deadline = Date.now() + withinMs;
    while (Date.now() < deadline) {
      if (!(await exists(id))) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  }

  it("removes, while it runs, a dead owner's container and its task folder within the interval, keeps a live owner's and another host's, and sweeps no more once stopped", async () => {
    const tmpDir = await mkdtemp('/tmp/arvo-reaper-watch-');
    const orphanTask = join(tmpDir, `sample_1-${randomUUID()}`);
    await mkdir(join(orphanTask, 'workspace', 'shared'), { recursive: true });
    const warnings: string[] = [];
    const watch = new ReaperWatch(
      reaper,
      { engine: DockerEngine.fromEnvironment(), tmpDir, maxAgeMs: 3600_000, intervalMs: 1000 },
      { log: () => undefined, warn: (line) => warnings.push(line) },
    );
    watch.start();
    try {
      // Made after the watch started: only a sweep while it runs can find them.
      const live = await containerOf(owners.live);
      const otherHost = await containerOf(owners.otherHost);
      const dead = await containerOf(owners.dead, orphanTask, true);

      expect(await gone(dead, 5_000)).toBe(true);
      // The folder goes right after its container, in the same sweep.
      await watch.sweep();
      await expect(stat(orphanTask)).rejects.toMatchObject({ code: 'ENOENT' });
      expect(await exists(live)).toBe(true);
      expect(await exists(otherHost)).toBe(true);

      await watch.stop();
      const deadAfterStop = await containerOf(owners.dead);
      expect(await gone(deadAfterStop, 2_500)).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      await watch.stop();
      await rm(tmpDir, { recursive: true, force: true });
    }
  }, 30_000);
});
