import { Test, type TestingModule } from '@nestjs/testing';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, stat, utimes } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, SANDBOX_FACTORY, SANDBOX_OWNER, type SandboxFactory, type SandboxOptionsInput } from '@arvo-rca/sandbox';
import { ArvoDockerModule } from './arvo-docker.module';
import { createDockerClient } from './engine/docker-engine';
import { engineSettingsFromEnvironment } from './engine/engine-settings';
import { describeWithDocker } from './engine/docker-gate.testing';
import { LABEL_OWNER, ownerFilter } from './engine/labels';
import { makeTaskWorkspace } from '@arvo-rca/sandbox/testing';
import { sampleImageTag } from './images/sample-image.testing';
import { useTempDir } from './images/sandbox-fixtures.testing';

const ROOT = resolve(__dirname, '../../../..');

// On the engine the suite runs against, as the green agent's configuration would name it.
function moduleWith(options: SandboxOptionsInput): Promise<TestingModule> {
  return Test.createTestingModule({ imports: [ArvoDockerModule.forRoot({ ...options, engine: engineSettingsFromEnvironment() })] }).compile();
}

describe('ArvoDockerModule', () => {
  const tmpDir = useTempDir('arvo-module-');

  it('rejects an unknown SANDBOX with a clear error', async () => {
    await expect(moduleWith({ sandbox: 'bogus', tmpDir: tmpDir() })).rejects.toMatchObject({
      code: 'SANDBOX_UNKNOWN',
      message: 'SANDBOX="bogus" is not a sandbox backend; use one of: auto, docker, local, local-unsafe',
    });
  });

  it('rejects impossible limits, naming each', async () => {
    await expect(moduleWith({ sandbox: 'local', tmpDir: tmpDir(), commandTimeoutS: 0, cpus: -1 })).rejects.toThrow(
      'invalid sandbox options: commandTimeoutS=0, cpus=-1 (each must be a positive number)',
    );
  });

  it('provides the local backend for SANDBOX=local-unsafe (no bubblewrap needed), and reaps stale task folders at boot', async () => {
    const stale = join(tmpDir(), 'arvo_1-0b8d7d1e-9f5a-4c8e-a1a2-58d4f4c1e8a0');
    await mkdir(stale);
    const longAgo = new Date(Date.now() - 7 * 24 * 3600_000);
    await utimes(stale, longAgo, longAgo);
    const module = await moduleWith({ sandbox: 'local-unsafe', tmpDir: tmpDir(), privatePaths: [join(tmpDir(), 'cache')] });
    await module.init();
    try {
      expect(module.get<SandboxFactory>(SANDBOX_FACTORY).kind).toBe('local');
      await expect(stat(stale)).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      await module.close();
    }
  });
});

describeWithDocker('ArvoDockerModule with an engine', () => {
  const docker = createDockerClient();
  const tmpDir = useTempDir('arvo-module-docker-');

  it('picks docker for SANDBOX=auto, reaps dead owners at boot, and removes its containers at shutdown', async () => {
    const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadOwner = formatOwnerId({ ...currentOwner(new ProcessTable()), pid: Number(exited.stdout) });
    const orphan = await docker.createContainer({ Image: sampleImageTag('1'), Cmd: ['true'], Labels: { [LABEL_OWNER]: deadOwner } });
    const module = await moduleWith({ sandbox: 'auto', tmpDir: tmpDir() });
    await module.init();
    const owner = module.get<string>(SANDBOX_OWNER);
    const sandbox = module.get<SandboxFactory>(SANDBOX_FACTORY).create({
      task: 'sample:1',
      contextId: 'ctx-module',
      image: sampleImageTag('1'),
      workspaceDir: await makeTaskWorkspace(tmpDir()),
    });
    await sandbox.start();

    expect(module.get<SandboxFactory>(SANDBOX_FACTORY).kind).toBe('docker');
    await expect(orphan.inspect()).rejects.toMatchObject({ statusCode: 404 });
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toHaveLength(1);
    await module.close();
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toEqual([]);
  }, 60_000);

  it("reaps, while it runs, a dead owner's container made after its boot, within its reap interval", async () => {
    const module = await moduleWith({ sandbox: 'docker', tmpDir: tmpDir(), reapIntervalS: 1 });
    await module.init();
    try {
      const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
      const deadOwner = formatOwnerId({ ...currentOwner(new ProcessTable()), pid: Number(exited.stdout) });
      const orphan = await docker.createContainer({ Image: sampleImageTag('1'), Cmd: ['sleep', '60'], Labels: { [LABEL_OWNER]: deadOwner } });
      await orphan.start();
      const deadline = Date.now() + 5_000;
      let there = true;
      while (there && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        there = await orphan.inspect().then(
          () => true,
          () => false,
        );
      }

      expect(there).toBe(false);
    } finally {
      await module.close();
    }
  }, 30_000);

  it("removes all of this instance's containers when the process gets SIGTERM", async () => {
    const workspace = await makeTaskWorkspace(tmpDir());
    // Node itself, with tsx as its loader: tsx's own CLI stands between the signal and the process, and
    // SIGKILLs it when it has not said within 30 ms that it got the signal (so on a busy machine it never
    // ran its shutdown).
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'shutdown-fixture.testing.ts'), tmpDir(), workspace, sampleImageTag('1')], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tools/tsconfig.json') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const { owner, name } = JSON.parse(line) as { owner: string; name: string };

    expect((await docker.getContainer(name).inspect()).Config.Labels[LABEL_OWNER]).toBe(owner);
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toEqual([]);
  }, 60_000);
});
