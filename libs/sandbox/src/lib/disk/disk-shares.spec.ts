import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { ProcessTable } from '@arvo-rca/common';
import { LocalSandboxFactory } from '../local/local-sandbox-factory';
import type { Sandbox } from '../sandbox';
import { resolveSandboxOptions, type SandboxOptionsInput } from '../sandbox-options';
import { makeTaskWorkspace, settledWithin } from '../sandbox-fixtures.testing';

const MIB = 1024 ** 2;

// The local sandboxes' workspaces are folders of TMP_DIR: the total is its filesystem's free disk (or
// TASKS_DISK_TOTAL), in shares of CONTAINER_DISK. Plain processes, so that it runs on any host.
describe('disk shares of the local sandboxes', () => {
  let root: string;
  const factories: LocalSandboxFactory[] = [];

  beforeAll(async () => {
    root = await mkdtemp('/tmp/arvo-disk-shares-');
  });

  afterAll(async () => {
    await Promise.all(factories.map((made) => made.stopAll()));
    await rm(root, { recursive: true, force: true });
  });

  function factory(options: SandboxOptionsInput, log: string[] = []): LocalSandboxFactory {
    const made = new LocalSandboxFactory('process', resolveSandboxOptions({ tmpDir: root, ...options }), new ProcessTable(), (line) => log.push(line));
    factories.push(made);
    return made;
  }
  async function sandboxOf(made: LocalSandboxFactory, progress: string[] = [], waitS?: number): Promise<Sandbox> {
    const workspaceDir = await makeTaskWorkspace(await mkdtemp(`${root}/task-`));
    return made.create({ task: 'sample:1', contextId: 'ctx', image: 'unused', workspaceDir, onProgress: (line) => progress.push(line), waitS });
  }

  it("takes the free disk of the workspaces' filesystem as the total: one task of two thirds of it at once, the next waits and says why", async () => {
    const disk = await statfs(root);
    const share = Math.floor((disk.bavail * disk.bsize * 2) / 3);
    const log: string[] = [];
    const made = factory({ diskBytes: share }, log);
    const waiting: string[] = [];
    const [first, second] = [await sandboxOf(made), await sandboxOf(made, waiting)];
    await first.start();
    const next = second.start();

    expect(await settledWithin(next, 500)).toBe('pending');
    expect(log).toEqual([
      expect.stringMatching(
        new RegExp(
          `^disk shares: .* free on ${root} \\(the workspaces' filesystem\\) holds 1 task\\(s\\) of .* at once; 1 running, the others wait for a share$`,
        ),
      ),
    ]);
    expect(waiting).toContainEqual(expect.stringMatching(new RegExp(`^${second.name}: waiting for a disk share: 1 task\\(s\\) of .* fill .* free on ${root}`)));
    await first.stop();
    await next;
    expect(await second.exec('echo started')).toMatchObject({ kind: 'ran', output: 'started\n' });
    await second.stop();
  });

  it("says at an assessment's start what its concurrency would take when the total holds fewer tasks, and nothing when they fit", async () => {
    const made = factory({ diskBytes: 64 * MIB, diskTotalBytes: 200 * MIB });

    expect(await made.diskOutlook(8)).toBe(
      'disk shares: 8 task(s) at once of 64.0 MiB (CONTAINER_DISK) would take 512.0 MiB, but 200.0 MiB in total (TASKS_DISK_TOTAL) holds 3: at most 3 run at once, the others wait for a share',
    );
    expect(await made.diskOutlook(3)).toBeUndefined();
    expect(await factory({ diskTotalBytes: 0 }).diskOutlook(32)).toBeUndefined();
  });

  it('lets a start that waits for a share be stopped: it fails and takes no share', async () => {
    const made = factory({ diskBytes: 64 * MIB, diskTotalBytes: 100 * MIB });
    const [holder, stopped, third] = [await sandboxOf(made), await sandboxOf(made), await sandboxOf(made)];
    await holder.start();
    const waits = stopped.start();
    const after = third.start();
    await stopped.stop();

    await expect(waits).rejects.toMatchObject({ code: 'SANDBOX_NOT_STARTED', message: `sandbox ${stopped.name} was stopped while it waited for a disk share` });
    await holder.stop();
    await after;
    await third.stop();
  });

  // An assessment whose disk held two shares, at two tasks at once with two more made ahead, hung for good:
  // the two made ahead took both shares first, and waited for the turns of the two that waited for a share.
  it('gives a sandbox made ahead of its turn no share until its turn: the running task starts first, and the turn waits for its share', async () => {
    const made = factory({ diskBytes: 64 * MIB, diskTotalBytes: 100 * MIB });
    const waiting: string[] = [];
    const [ahead, running] = [await sandboxOf(made, waiting, 60), await sandboxOf(made)];
    await ahead.start();

    expect(await settledWithin(running.start(), 5_000)).toBeUndefined();
    const turn = ahead.takeTurn();
    expect(await settledWithin(turn, 500)).toBe('pending');
    expect(waiting).toContainEqual(expect.stringMatching(/waiting for a disk share: 1 task\(s\) of 64\.0 MiB fill 100\.0 MiB in total/));
    await running.stop();
    expect(await settledWithin(turn, 5_000)).toBeUndefined();
    expect(await ahead.exec('echo its turn')).toMatchObject({ kind: 'ran', output: 'its turn\n' });
    await ahead.stop();
  });

  it('fails the turn of a sandbox stopped while it waits there for its share, saying so, and takes no share', async () => {
    const made = factory({ diskBytes: 64 * MIB, diskTotalBytes: 100 * MIB });
    const [ahead, running, next] = [await sandboxOf(made, [], 60), await sandboxOf(made), await sandboxOf(made)];
    await ahead.start();
    await running.start();
    const turn = ahead.takeTurn();
    turn.catch(() => undefined);
    await ahead.stop();

    await expect(turn).rejects.toMatchObject({ code: 'SANDBOX_NOT_STARTED', message: `sandbox ${ahead.name} was stopped while it waited for a disk share` });
    await running.stop();
    // The one share is free again: the stopped sandbox holds none.
    expect(await settledWithin(next.start(), 5_000)).toBeUndefined();
    await next.stop();
  });

  it('refuses a task the total holds no share for, naming the numbers', async () => {
    const sandbox = await sandboxOf(factory({ diskBytes: 512 * MIB, diskTotalBytes: 100 * MIB }));

    await expect(sandbox.start()).rejects.toMatchObject({
      code: 'DISK_SHARE_UNAVAILABLE',
      message:
        'a task needs a disk share of 512.0 MiB (CONTAINER_DISK), but 100.0 MiB in total (TASKS_DISK_TOTAL) holds none, with 0 task(s) running: lower CONTAINER_DISK or free disk',
    });
  });

  it('bounds nothing when TASKS_DISK_TOTAL is 0', async () => {
    const made = factory({ diskBytes: 1024 ** 5, diskTotalBytes: 0 });
    const sandboxes = [await sandboxOf(made), await sandboxOf(made), await sandboxOf(made)];

    await Promise.all(sandboxes.map((sandbox) => sandbox.start()));
    await Promise.all(sandboxes.map((sandbox) => sandbox.stop()));
  });
});
