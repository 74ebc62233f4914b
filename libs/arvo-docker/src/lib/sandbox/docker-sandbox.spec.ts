import { chmod, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, defaultContainerCpus, type ExecOutcome, formatOwnerId, resolveSandboxOptions, type Sandbox } from '@arvo-rca/sandbox';
import { BUILD_CAPABILITIES } from '../container/container-spec';
import { createDockerClient, DockerEngine } from '../engine/docker-engine';
import { describeWithDocker } from '../engine/docker-gate.testing';
import { engineKind, type EngineKind } from '../engine/engine-kind.testing';
import { LABEL_CONTEXT, LABEL_OWNER, LABEL_TASK, LABEL_TASK_FOLDER, ownerFilter } from '../engine/labels';
import { DockerSandboxFactory } from './sandbox-factory';
import { makeTaskWorkspace, peakRssGrowth } from '@arvo-rca/sandbox/testing';
import { endedByTimeout, KEEP_ALIVE, LIST_PROCESSES } from '../images/sandbox-fixtures.testing';
import { sampleImageTag } from '../images/sample-image.testing';

// Linux capability numbers (linux/capability.h) of the capabilities a task container keeps.
const CAPABILITY_NUMBERS: Record<(typeof BUILD_CAPABILITIES)[number], number> = {
  CHOWN: 0,
  DAC_OVERRIDE: 1,
  FOWNER: 3,
  FSETID: 4,
  KILL: 5,
  SETGID: 6,
  SETUID: 7,
};

function completed(outcome: ExecOutcome): { returncode: number; output: string } {
  if (outcome.kind !== 'ran' || outcome.timedOut !== undefined) throw new Error(`expected a completed command, got ${JSON.stringify(outcome).slice(0, 500)}`);
  return { returncode: outcome.returncode, output: outcome.output };
}

describeWithDocker('DockerSandbox, a task container on a sample image', () => {
  const docker = createDockerClient();
  const owner = formatOwnerId(currentOwner(new ProcessTable()));
  let root: string;
  let workspace: string;
  let cache: string;
  let factory: DockerSandboxFactory;
  let sandbox: Sandbox;
  let engine: EngineKind;
  const progress: string[] = [];

  beforeAll(async () => {
    root = await mkdtemp('/tmp/arvo-sandbox-env-');
    engine = engineKind(await docker.version());
    cache = join(root, 'cache');
    await mkdir(join(cache, 'sample', '1'), { recursive: true });
    await writeFile(join(cache, 'sample', '1', 'patch.diff'), 'the answer\n');
    workspace = await makeTaskWorkspace(root);
    const options = resolveSandboxOptions({ sandbox: 'docker', tmpDir: root, privatePaths: [cache], commandTimeoutS: 30, taskTimeoutS: 600 });
    factory = new DockerSandboxFactory(DockerEngine.fromEnvironment(), options, owner);
    sandbox = factory.create({
      task: 'sample:1',
      contextId: 'ctx-env',
      image: sampleImageTag('1'),
      workspaceDir: workspace,
      onProgress: (line) => progress.push(line),
    });
    await sandbox.start();
  }, 60_000);

  afterAll(async () => {
    await factory?.stopAll();
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toEqual([]);
    await rm(root, { recursive: true, force: true });
  });

  it('names the container arvo_<id>_<unique> and hardens it: no network, limits, capabilities, labels', async () => {
    const info = await docker.getContainer(sandbox.name).inspect();

    expect(sandbox.name).toMatch(/^arvo_1_[0-9a-f]{8}$/);
    expect(info.Config.Labels).toMatchObject({
      [LABEL_OWNER]: owner,
      [LABEL_TASK]: 'sample:1',
      [LABEL_CONTEXT]: 'ctx-env',
      [LABEL_TASK_FOLDER]: dirname(workspace),
    });
    expect(info.HostConfig).toMatchObject({
      NetworkMode: 'none',
      Init: true,
      Memory: 4 * 1024 ** 3,
      MemorySwap: 4 * 1024 ** 3,
      PidsLimit: 1024,
      NanoCpus: defaultContainerCpus() * 1e9,
      CpuShares: 2,
      SecurityOpt: ['no-new-privileges'],
      AutoRemove: false,
    });
    if (engine === 'docker') {
      expect(info.HostConfig).toMatchObject({ CapDrop: ['ALL'] });
      expect([...(info.HostConfig.CapAdd ?? [])].sort()).toEqual([...BUILD_CAPABILITIES].sort());
      expect(Object.keys(info.NetworkSettings.Networks)).toEqual(['none']);
    } else {
      // podman reports the capabilities it dropped one by one and lists no network for `none`; what the
      // container really holds is checked from inside, below.
      expect(Object.keys(info.NetworkSettings.Networks ?? {})).toEqual([]);
    }
    expect(info.Mounts).toEqual([]);
    // The main process takes the workspace on its stdin, then keeps the container alive for the task's limit plus the margin.
    expect((info.Config.Entrypoint as string[]).slice(0, 2)).toEqual(['sh', '-c']);
    expect(info.Config.Cmd).toEqual([String(600 + 300)]);
    expect(info.Config.OpenStdin).toBe(true);
  });

  it("weighs the task's commands least on the CPU: the engine's starts and the agents come first on a busy machine", async () => {
    // cgroup v2 holds the weight as cpu.weight (shares 2 are weight 1), v1 as cpu.shares.
    const { output } = completed(await sandbox.exec('cat /sys/fs/cgroup/cpu.weight 2>/dev/null || cat /sys/fs/cgroup/cpu/cpu.shares'));

    expect(['1', '2']).toContain(output.trim());
  });

  it('gives the commands the build capabilities and no others, whatever the engine reports', async () => {
    const { output } = completed(await sandbox.exec("grep -E '^Cap(Prm|Eff|Bnd):' /proc/self/status"));
    const mask = BUILD_CAPABILITIES.reduce((bits, name) => bits | (1n << BigInt(CAPABILITY_NUMBERS[name])), 0n);

    const held = Object.fromEntries(
      output
        .trim()
        .split('\n')
        .map((line) => line.split(/:\s+/))
        .map(([key, hex]) => [key, BigInt(`0x${hex}`)]),
    );
    expect(held).toEqual({ CapPrm: mask, CapEff: mask, CapBnd: mask });
  });

  it('shows the agent no network interface but loopback, and no new privileges', async () => {
    const { output } = completed(await sandbox.exec("tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '; grep NoNewPrivs /proc/self/status"));

    expect(output).toMatch(/^lo\nNoNewPrivs:\s+1\n$/);
  });

  it('removes the .git directories under /src before the agent gets in, keeping the sources', async () => {
    const { output } = completed(await sandbox.exec('find /src -name .git | wc -l; ls /src/tlvkit/src | head -1'));

    expect(output).toMatch(/^0\n\w+\.c\n$/);
    expect(progress).toContainEqual(expect.stringContaining('removed .git directories under /src'));
  });

  it('runs bash -lc in /workspace with stdin closed, a non-interactive environment, and stdout and stderr merged in order', async () => {
    const command = 'echo "$0 $(pwd)"; echo out; echo err >&2; echo out again; cat; echo "$PAGER $GIT_PAGER $TERM"; exit 3';

    expect(completed(await sandbox.exec(command))).toEqual({ returncode: 3, output: 'bash /workspace\nout\nerr\nout again\ncat cat dumb\n' });
  });

  it('rewrites host paths of the workspace to /workspace, and reads files the agent wrote', async () => {
    const outcome = await sandbox.exec(`cat ${workspace}/1_error.txt > ${workspace}/shared/loc.json`);

    expect(completed(outcome).returncode).toBe(0);
    expect((await sandbox.readFile('/workspace/shared/loc.json')).toString()).toBe('ERROR: AddressSanitizer: heap-buffer-overflow\n');
    expect((await sandbox.readFile(`${workspace}/shared/loc.json`)).toString()).toContain('AddressSanitizer');
    await expect(sandbox.readFile('/workspace/shared/missing.json')).rejects.toMatchObject({
      code: 'FILE_NOT_FOUND',
      message: expect.stringMatching(/^cannot read \/workspace\/shared\/missing.json: it does not exist \(in /),
    });
  });

  it('tells a file that is not there (FILE_NOT_FOUND) from one that is there but not read, naming what it is', async () => {
    const plant = 'cd shared && mkfifo pipe.json && mkdir folder.json && truncate -s 3G huge.json && ln -s /etc/passwd passwd.json';
    expect(completed(await sandbox.exec(plant)).returncode).toBe(0);
    const refused = await Promise.all(
      ['gone.json', 'pipe.json', 'folder.json', 'huge.json'].map((name) => sandbox.readFile(`/workspace/shared/${name}`).catch((error: unknown) => error)),
    );

    expect(
      refused.map((error) => [(error as { code: string }).code, (error as Error).message.replace(/^cannot read \S+: /, '').replace(/ \(in .*$/, '')]),
    ).toEqual([
      ['FILE_NOT_FOUND', 'it does not exist'],
      ['FILE_NOT_REGULAR', 'it is a FIFO, not a regular file'],
      ['FILE_NOT_REGULAR', 'it is a folder, not a regular file'],
      ['FILE_TOO_LARGE', 'it is larger than 8388608 bytes'],
    ]);
    // Podman's archive API follows a final link inside the container's own root: what it reads there the solver could anyway.
    if (engine === 'docker') await expect(sandbox.readFile('/workspace/shared/passwd.json')).rejects.toMatchObject({ code: 'FILE_NOT_REGULAR' });
    expect(completed(await sandbox.exec('rm -r shared/pipe.json shared/folder.json shared/huge.json shared/passwd.json')).returncode).toBe(0);
  }, 60_000);

  it('refuses a FIFO, a device, a link and a 1.5 GiB sparse file from their tar headers, at once and reading none of them', async () => {
    const plant = 'cd shared && mkfifo fifo.json && ln -sf /dev/zero endless.json && ln -sf /etc/shadow shadow.json && truncate -s 1536M sparse.json';
    expect(completed(await sandbox.exec(plant)).returncode).toBe(0);
    const refusal = (name: string): Promise<unknown> => sandbox.readFile(`/workspace/shared/${name}`).catch((error: unknown) => error);
    const started = Date.now();

    const refused = await Promise.all(['fifo.json', 'endless.json', 'shadow.json', 'sparse.json', '../../dev/zero'].map(refusal));
    const outcomes = refused.map((error) =>
      Buffer.isBuffer(error)
        ? ['READ', error.toString().split(':')[0]]
        : [(error as { code: string }).code, (error as Error).message.replace(/^cannot read \S+: /, '').replace(/ \(in .*$/, '')],
    );
    if (engine === 'docker') {
      expect(outcomes).toEqual([
        ['FILE_NOT_REGULAR', 'it is a FIFO, not a regular file'],
        ['FILE_NOT_REGULAR', 'it is a symbolic link (to /dev/zero), not a regular file'],
        ['FILE_NOT_REGULAR', 'it is a symbolic link (to /etc/shadow), not a regular file'],
        ['FILE_TOO_LARGE', 'it is larger than 8388608 bytes'],
        ['FILE_NOT_REGULAR', 'it is a device, not a regular file'],
      ]);
    } else {
      // Podman's archive API follows a final link, inside the container's own root, and leaves a device out
      // of the archive: the link to /etc/shadow reads the container's own file, which its solver can read anyway.
      expect(outcomes).toEqual([
        ['FILE_NOT_REGULAR', 'it is a FIFO, not a regular file'],
        ['FILE_NOT_READABLE', 'the engine sent no file (a socket, or nothing)'],
        ['READ', 'root'],
        ['FILE_TOO_LARGE', 'it is larger than 8388608 bytes'],
        ['FILE_NOT_READABLE', 'the engine sent no file (a socket, or nothing)'],
      ]);
    }
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(completed(await sandbox.exec('rm shared/sparse.json')).returncode).toBe(0);
  }, 60_000);

  it("refuses commands that name the assessor's private files", async () => {
    const outcome = await sandbox.exec(`cat ${cache}/sample/1/patch.diff`);

    expect(outcome).toEqual({ kind: 'rejected', reason: `the command refers to ${cache}, which holds the assessor's private files` });
  });

  it("returns -1, the partial output and a note on timeout, and leaves none of the command's processes behind", async () => {
    const command = 'echo started; setsid sleep 4242 >/dev/null 2>&1 & nohup sleep 4243 >/dev/null 2>&1 & sleep 4244; echo never';
    const started = Date.now();
    const outcome = await sandbox.exec(command, { timeoutS: 2 });
    const { output } = completed(await sandbox.exec(LIST_PROCESSES));

    expect(outcome).toMatchObject(endedByTimeout(2, 'started\n'));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(output).toMatch(KEEP_ALIVE); // the keep-alive is still there
    expect(output).not.toMatch(/sleep 424[234]/);
  }, 30_000);

  it('keeps head and tail of a gigabyte of output, with the elided count, in little memory', async () => {
    // A memory figure, not a speed: the task container has the least CPU weight, and beside CI's other suites its 1 GiB
    // once took over 120 s (18 s alone).
    const { result, growthBytes } = await peakRssGrowth(() => sandbox.exec("head -c 1G /dev/zero | tr '\\0' a; echo; echo the end", { timeoutS: 600 }));
    const total = 1024 ** 3 + 1 + 8;

    expect(result).toMatchObject({ kind: 'ran', returncode: 0, outputBytes: total, elidedBytes: total - 100 * 1024 });
    const output = (result as { output: string }).output;
    expect(output.startsWith('a'.repeat(50 * 1024) + `\n[... ${total - 100 * 1024} bytes elided ...]\n`)).toBe(true);
    expect(output.endsWith('aaaa\nthe end\n')).toBe(true);
    console.log(`RSS growth while capping 1 GiB of output: ${(growthBytes / 1024 / 1024).toFixed(1)} MiB`);
    expect(growthBytes).toBeLessThan(64 * 1024 * 1024);
  }, 660_000);

  it('replaces invalid UTF-8 in the output with U+FFFD', async () => {
    expect(completed(await sandbox.exec("printf 'ok \\377\\376 \\303( \\342\\202\\254'")).output).toBe('ok \uFFFD\uFFFD \uFFFD( €');
  });

  it('makes a second container for a second task on the same id, and removes each on stop', async () => {
    const other = await makeTaskWorkspace(root);
    const second = factory.create({ task: 'sample:1', contextId: 'ctx-second', image: sampleImageTag('1'), workspaceDir: other });
    await second.start();
    const names = (await docker.listContainers({ all: true, filters: ownerFilter(owner) })).map((c) => c.Names[0]);

    expect(names).toEqual(expect.arrayContaining([`/${sandbox.name}`, `/${second.name}`]));
    await second.stop();
    await second.stop();
    await expect(docker.getContainer(second.name).inspect()).rejects.toMatchObject({ statusCode: 404 });
    await expect(second.exec('true')).rejects.toMatchObject({ code: 'SANDBOX_NOT_STARTED' });
  }, 60_000);

  it('copies the workspace in as root, without set-id bits, keeping links as links', async () => {
    const other = await makeTaskWorkspace(root);
    await mkdir(join(other, 'src-vul', 'proj'), { recursive: true });
    await writeFile(join(other, 'src-vul', 'proj', 'tool'), '#!/bin/sh\n');
    await chmod(join(other, 'src-vul', 'proj', 'tool'), 0o6755);
    await symlink('/usr/share/misc/config.guess', join(other, 'src-vul', 'proj', 'config.guess'));
    const task = factory.create({ task: 'sample:1', contextId: 'ctx-copy', image: sampleImageTag('1'), workspaceDir: other });
    await task.start();
    try {
      const { output } = completed(await task.exec('cd src-vul/proj && stat -c "%n %U %a" tool && readlink config.guess && cat ../../1_error.txt'));

      expect(output).toBe('tool root 755\n/usr/share/misc/config.guess\nERROR: AddressSanitizer: heap-buffer-overflow\n');
    } finally {
      await task.stop();
    }
  }, 60_000);

  it('keeps what the solver writes in the container: nothing lands in the host workspace', async () => {
    const before = await readdir(workspace, { recursive: true });
    const outcome = await sandbox.exec(
      'cp /bin/sh /workspace/shell && chmod 4755 /workspace/shell && echo x > /workspace/shared/written && ls /workspace/shell',
    );

    expect(completed(outcome)).toEqual({ returncode: 0, output: '/workspace/shell\n' });
    expect(await readdir(workspace, { recursive: true })).toEqual(before);
  });

  it('runs commands through one shell session, not one engine exec each', async () => {
    const execsBefore = (await docker.getContainer(sandbox.name).inspect()).ExecIDs?.length ?? 0;

    for (let i = 0; i < 5; i++) expect(completed(await sandbox.exec(`echo ${i}`))).toEqual({ returncode: 0, output: `${i}\n` });

    const execsAfter = (await docker.getContainer(sandbox.name).inspect()).ExecIDs?.length ?? 0;
    expect(execsAfter - execsBefore).toBeLessThanOrEqual(1);
  });

  it('passes any command text through the session unchanged: quotes, newlines, non-ASCII, a fake end mark', async () => {
    const command = `printf '%s\\n' "it's \\"quoted\\"" 'héllo ☃'\necho '__arvo_rca_done_0 0'\nexit 3`;

    expect(completed(await sandbox.exec(command))).toEqual({ returncode: 3, output: `it's "quoted"\nhéllo ☃\n__arvo_rca_done_0 0\n` });
  });

  it('survives a command that kills the session shell: -1 for it, a fresh session for the next', async () => {
    const killed = await sandbox.exec("echo before; kill -9 $(awk '{print $4}' /proc/$PPID/stat); sleep 5");

    expect(completed(killed)).toEqual({ returncode: -1, output: 'before\n' });
    expect(completed(await sandbox.exec('echo after'))).toEqual({ returncode: 0, output: 'after\n' });
    // Booted anew, its main process left the workspace as it was and keeps the container alive again.
    expect(completed(await sandbox.exec(LIST_PROCESSES)).output).toMatch(KEEP_ALIVE);
    expect(completed(await sandbox.exec('ls /workspace')).output).toContain('1_error.txt');
    // The container's processes are restarted through the engine in between: a bound for a loaded machine.
  }, 60_000);

  it('runs commands and reads files through its one shell session, with no engine exec of their own', async () => {
    const other = await makeTaskWorkspace(root);
    const task = factory.create({ task: 'sample:1', contextId: 'ctx-one-exec', image: sampleImageTag('1'), workspaceDir: other });
    await task.start();
    try {
      const execIds = async (): Promise<number> => (await docker.getContainer(task.name).inspect()).ExecIDs?.length ?? 0;
      const afterStart = await execIds();

      expect(completed(await task.exec('printf \'{"locations": []}\' > shared/loc.json'))).toEqual({ returncode: 0, output: '' });
      expect((await task.readFile('/workspace/shared/loc.json')).toString()).toBe('{"locations": []}');
      expect(await execIds()).toBe(afterStart);
    } finally {
      await task.stop();
    }
  }, 60_000);

  it("reads a file while a command runs, without waiting behind the solver's command", async () => {
    const running = sandbox.exec('sleep 3; echo slept');
    const started = Date.now();

    expect((await sandbox.readFile('/workspace/1_error.txt')).toString()).toContain('AddressSanitizer');
    expect(Date.now() - started).toBeLessThan(2500);
    expect(completed(await running)).toEqual({ returncode: 0, output: 'slept\n' });
  }, 30_000);

  it('gives two tasks on the same id two container names', () => {
    const a = factory.create({ task: 'arvo:14368', contextId: 'a', image: 'x', workspaceDir: workspace });
    const b = factory.create({ task: 'arvo:14368', contextId: 'b', image: 'x', workspaceDir: workspace });

    expect(a.name).toMatch(/^arvo_14368_[0-9a-f]{8}$/);
    expect(a.name).not.toBe(b.name);
  });
});
