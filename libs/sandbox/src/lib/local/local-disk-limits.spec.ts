import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { ProcessTable } from '@arvo-rca/common';
import { describeWithBubblewrap } from './bubblewrap-gate.testing';
import { LocalSandboxFactory } from './local-sandbox-factory';
import type { Sandbox } from '../sandbox';
import { makeTaskWorkspace } from '../sandbox-fixtures.testing';
import { resolveSandboxOptions, type SandboxOptionsInput } from '../sandbox-options';

// Empty files as fast as a shell makes them, in the workspace (the one folder of the host a task writes).
const FILE_BOMB = 'mkdir -p /workspace/bomb && cd /workspace/bomb && i=0; while :; do touch $(seq -f "f$i-%g" 1 1000); i=$((i+1)); done';
const MIB = 1024 ** 2;
const asRoot = process.getuid?.() === 0;

interface Ended {
  ms: number;
  detail: string;
}

describeWithBubblewrap("the local sandbox's disk: each task's bytes and files, and the host's free inodes", () => {
  const roots: string[] = [];
  const factories: LocalSandboxFactory[] = [];

  async function sandboxIn(tmpDir: string, options: SandboxOptionsInput, ended: Ended[]): Promise<{ sandbox: Sandbox; began: () => void }> {
    const factory = new LocalSandboxFactory(
      'bwrap',
      resolveSandboxOptions({ tmpDir, commandTimeoutS: 60, killAfterS: 1, hostGraceS: 1, ...options }),
      new ProcessTable(),
    );
    factories.push(factory);
    let since = performance.now();
    const sandbox: Sandbox = factory.create({
      task: 'sample:1',
      contextId: 'ctx',
      image: 'unused',
      workspaceDir: await makeTaskWorkspace(tmpDir),
      // As the green agent does: the task's end stops its sandbox.
      onDiskLimit: (detail) => {
        ended.push({ ms: performance.now() - since, detail });
        void sandbox.stop();
      },
    });
    return { sandbox, began: () => (since = performance.now()) };
  }
  async function tempRoot(): Promise<string> {
    const root = await mkdtemp('/tmp/arvo-local-disk-');
    roots.push(root);
    return root;
  }

  afterAll(async () => {
    await Promise.all(factories.map((factory) => factory.stopAll()));
    for (const root of roots) {
      if (asRoot) execFileSync('sh', ['-c', `mountpoint -q ${root} && umount ${root} || true`]);
      await rm(root, { recursive: true, force: true });
    }
  });

  it("ends a task that makes empty files as fast as it can past its bound of files, long before its command's time", async () => {
    const ended: Ended[] = [];
    const { sandbox, began } = await sandboxIn(await tempRoot(), { diskFiles: 5_000, commandTimeoutS: 120 }, ended);
    await sandbox.start();
    began();
    await sandbox.exec(FILE_BOMB).catch(() => undefined);

    expect(ended).toEqual([
      { ms: expect.any(Number), detail: expect.stringMatching(/^the task's workspace made [\d,]+ files, past its limit of 5,000 \(CONTAINER_FILES\)$/) },
    ]);
    // Long before its command's 120 s (a loaded machine makes the files slowly too), and within a look or two
    // of the bound: the first look, far from it, comes 2 s after the start, then looks come faster.
    expect(ended[0].ms).toBeLessThan(60_000);
    expect(Number(/made ([\d,]+) files/.exec(ended[0].detail)?.[1].replace(/,/g, ''))).toBeLessThan(100_000);
    console.log(`local file bomb: ended after ${Math.round(ended[0].ms)} ms at ${ended[0].detail}`);
  }, 150_000);

  it('ends a task whose workspace passes its disk limit in bytes, as the container does', async () => {
    const ended: Ended[] = [];
    const { sandbox, began } = await sandboxIn(await tempRoot(), { diskBytes: 16 * MIB }, ended);
    await sandbox.start();
    began();
    expect(await sandbox.exec('head -c 64M /dev/zero > /workspace/big && echo written')).toMatchObject({ kind: 'ran', output: 'written\n' });
    const deadline = performance.now() + 10_000;
    while (ended.length === 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));

    expect(ended).toEqual([
      { ms: expect.any(Number), detail: expect.stringMatching(/^the task's workspace wrote 64\.\d MiB, past its disk limit of 16\.0 MiB$/) },
    ]);
  }, 60_000);

  (asRoot ? it : it.skip)(
    "ends a task once the host's free inodes fall below the floor, and starts no other until they are back",
    async () => {
      // Its own filesystem of 1,000,000 inodes, a floor of 995,000 free: some 5,000 files pass it. The rest leaves
      // room for what the bomb makes before the watchdog's look and the stop (tens of thousands on a fast
      // machine), and for the next task's workspace: with 100,000 inodes a quick bomb used them all.
      const root = await tempRoot();
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,nr_inodes=1000000', 'tmpfs', root]);
      const ended: Ended[] = [];
      const floor = { inodesFloor: { inodes: 995_000 }, diskBytes: 16 * MIB };
      const { sandbox, began } = await sandboxIn(root, floor, ended);
      await sandbox.start();
      began();
      await sandbox.exec(FILE_BOMB).catch(() => undefined);

      expect(ended).toEqual([
        {
          ms: expect.any(Number),
          detail: expect.stringMatching(
            new RegExp(`^the host's free inodes on ${root} are [\\d,]+ of 1,000,000, below the floor of 995,000 \\(HOST_INODES_FLOOR\\)$`),
          ),
        },
      ]);
      const next = await sandboxIn(root, floor, []);
      await expect(next.sandbox.start()).rejects.toMatchObject({
        code: 'HOST_INODES_LOW',
        message: expect.stringMatching(/^a task cannot start: the host's free inodes on /),
      });
    },
    60_000,
  );
});
