import { spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, type ExecOutcome, formatOwnerId, type PendingWorkspace, resolveSandboxOptions, type Sandbox } from '@arvo-rca/sandbox';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { ownerFilter } from '../engine/labels';
import { DockerSandbox } from './docker-sandbox';
import { DockerSandboxFactory } from './sandbox-factory';
import { makeTaskWorkspace } from '@arvo-rca/sandbox/testing';
import { sampleImageTag } from '../images/sample-image.testing';

function output(outcome: ExecOutcome): string {
  if (outcome.kind !== 'ran' || outcome.timedOut !== undefined || outcome.returncode !== 0) throw new Error(`command failed: ${JSON.stringify(outcome)}`);
  return outcome.output;
}

interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A promise settled from outside, as a host's extraction settles its workspace. */
function deferred(): Deferred {
  let resolve = (): void => undefined;
  let reject = (_error: Error): void => undefined;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** `src-vul/` of `dir` as a tar stream, as the host's extraction would hand it on (`options` for GNU tar). */
async function tarOf(dir: string, options: string[] = []): Promise<Buffer> {
  const tar = spawn('tar', ['-C', dir, ...options, '-c', '-f', '-', 'src-vul'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const chunks: Buffer[] = [];
  for await (const chunk of tar.stdout) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describeWithDocker('DockerSandbox with a workspace still being laid out', () => {
  const docker = createDockerClient();
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  let root: string;
  let factory: DockerSandboxFactory;
  const ourContainers = async (): Promise<string[]> => (await docker.listContainers({ all: true, filters: ownerFilter(owner) })).map((info) => info.State);

  /** A sandbox of sample 1 whose `src-vul/` comes on `tree` and whose workspace is laid out once `ready` settles. */
  async function pendingSandbox(
    contextId: string,
    options: { workspaceDir?: string; progress?: string[] } = {},
  ): Promise<{ sandbox: Sandbox; ready: Deferred; tree: PassThrough }> {
    const ready = deferred();
    const tree = new PassThrough();
    const pendingWorkspace: PendingWorkspace = { ready: ready.promise, tree: { folder: 'src-vul', tar: tree } };
    const workspaceDir = options.workspaceDir ?? (await makeTaskWorkspace(root));
    const sandbox = factory.create({
      task: 'sample:1',
      contextId,
      image: sampleImageTag('1'),
      workspaceDir,
      pendingWorkspace,
      onProgress: (line) => options.progress?.push(line),
    });
    return { sandbox, ready, tree };
  }

  beforeAll(async () => {
    root = await mkdtemp('/tmp/arvo-sandbox-pending-');
    factory = new DockerSandboxFactory(DockerEngine.fromEnvironment(), resolveSandboxOptions({ sandbox: 'docker', tmpDir: root, commandTimeoutS: 30 }), owner);
  });

  afterAll(async () => {
    await factory?.stopAll();
    expect(await ourContainers()).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  it('starts its container before the workspace is ready, and copies the source tree from its stream on the way', async () => {
    const streamed = await mkdtemp(join(root, 'streamed-'));
    await mkdir(join(streamed, 'src-vul', 'p', 'include'), { recursive: true });
    await writeFile(join(streamed, 'src-vul', 'p', 'include', 'p.h'), '#define P 1\n');
    await symlink('include', join(streamed, 'src-vul', 'p', 'inc'));
    const workspace = await makeTaskWorkspace(root);
    // What the host holds of src-vul/ never goes in: the stream brought it already.
    await mkdir(join(workspace, 'src-vul'));
    await writeFile(join(workspace, 'src-vul', 'host-only.c'), 'int host;\n');
    const { sandbox, ready, tree } = await pendingSandbox('ctx-pending', { workspaceDir: workspace });

    const started = sandbox.start();
    tree.write(await tarOf(streamed));
    const deadline = Date.now() + 30_000;
    while ((await ourContainers()).join() !== 'running' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await ourContainers()).toEqual(['running']);
    tree.end();
    ready.resolve();
    await started;

    expect(output(await sandbox.exec('find src-vul | sort; readlink src-vul/p/inc; cat src-vul/p/inc/p.h 1_error.txt; ls shared | wc -l'))).toBe(
      'src-vul\nsrc-vul/p\nsrc-vul/p/inc\nsrc-vul/p/include\nsrc-vul/p/include/p.h\ninclude\n#define P 1\nERROR: AddressSanitizer: heap-buffer-overflow\n0\n',
    );
    expect((sandbox as DockerSandbox).startBreakdown?.tree).toBeGreaterThan(0);
    await sandbox.stop();
  }, 60_000);

  it("unpacks the tree with the image's own tar, which keeps neither the stream's owners nor its set-id bits", async () => {
    const streamed = await mkdtemp(join(root, 'owned-'));
    await mkdir(join(streamed, 'src-vul'));
    await writeFile(join(streamed, 'src-vul', 'tool'), '#!/bin/sh\n');
    await chmod(join(streamed, 'src-vul', 'tool'), 0o6755);
    // The rest of the workspace, packed by the green agent itself: another user's file, setuid and setgid, a link.
    const workspace = await makeTaskWorkspace(root);
    await writeFile(join(workspace, 'helper'), '#!/bin/sh\n');
    await chmod(join(workspace, 'helper'), 0o6755);
    await chown(join(workspace, 'helper'), 1234, 1234);
    await symlink('helper', join(workspace, 'helper-link'));
    const progress: string[] = [];
    const { sandbox, ready, tree } = await pendingSandbox('ctx-pending-owned', { progress, workspaceDir: workspace });

    const started = sandbox.start();
    // What the host's checks would never let through: another user's file, setuid and setgid.
    tree.end(await tarOf(streamed, ['--owner=1234', '--group=1234', '--numeric-owner']));
    ready.resolve();
    await started;

    expect(output(await sandbox.exec('stat -c "%u %g %A" src-vul/tool'))).toBe('0 0 -rwxr-xr-x\n');
    expect(output(await sandbox.exec('stat -c "%u %g %A" helper; readlink helper-link'))).toBe('0 0 -rwxr-xr-x\nhelper\n');
    expect(progress.join('\n')).not.toContain('no GNU tar');
    await sandbox.stop();
  }, 60_000);

  it("fails its start with tar's own words when the tree's stream is not a tar, and leaves no container", async () => {
    const { sandbox, ready, tree } = await pendingSandbox('ctx-pending-garbage');

    const started = sandbox.start();
    tree.end(Buffer.alloc(64 * 1024, 'not a tar archive\n'));
    ready.resolve();

    await expect(started).rejects.toMatchObject({
      code: 'WORKSPACE_COPY_FAILED',
      message: expect.stringMatching(/^tar in the container .*does not look like a tar archive/),
    });
    expect(await ourContainers()).toEqual([]);
  }, 60_000);

  it('fails its start at once when tar gives up before the end of its input, and leaves no container', async () => {
    const streamed = await mkdtemp(join(root, 'gave-up-'));
    await mkdir(join(streamed, 'src-vul'));
    await writeFile(join(streamed, 'src-vul', 'a.c'), 'int a;\n');
    const { sandbox, ready, tree } = await pendingSandbox('ctx-pending-gave-up');

    const started = sandbox.start();
    // A compressed stream makes GNU tar give up at its first block; the rest, far more than the pipes on
    // the way hold, is never read, and the copy must not wait for it until its deadline.
    tree.write(gzipSync(await tarOf(streamed)));
    tree.end(Buffer.alloc(64 * 1024 * 1024));
    ready.resolve();

    await expect(started).rejects.toMatchObject({
      code: 'WORKSPACE_COPY_FAILED',
      message: expect.stringMatching(/^tar in the container stopped before the end of its input: .*compressed/),
    });
    expect(await ourContainers()).toEqual([]);
  }, 60_000);

  it("fails its start with the workspace's own reason, closes the tree's stream so that its writer goes on, and leaves no container", async () => {
    const { sandbox, ready, tree } = await pendingSandbox('ctx-pending-failed');

    const started = sandbox.start();
    ready.reject(new Error('archive refused: entry "src-vul/../x" contains \'..\''));

    await expect(started).rejects.toThrow(/^archive refused/);
    expect(tree.destroyed).toBe(true);
    expect(await ourContainers()).toEqual([]);
  }, 60_000);

  it('stopped while its start waits for the workspace, ends only once that start has removed its container', async () => {
    // Its workspace is never ready: the stop alone must end the start.
    const { sandbox, tree } = await pendingSandbox('ctx-pending-stopped');

    const started = sandbox.start();
    const outcome = started.then(
      () => 'started',
      (error: Error) => error.message,
    );
    const deadline = Date.now() + 30_000;
    while ((await ourContainers()).join() !== 'running' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await ourContainers()).toEqual(['running']);
    await sandbox.stop();

    expect(await ourContainers()).toEqual([]);
    expect(tree.destroyed).toBe(true);
    expect(await outcome).toBe(`sandbox ${sandbox.name} was stopped while starting`);
  }, 60_000);
});
