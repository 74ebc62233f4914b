import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateEnvironment } from '@arvo-rca/agent-app';
import { ProcessTable } from '@arvo-rca/common';
import { LocalSandboxFactory, resolveSandboxOptions, type Sandbox } from '@arvo-rca/sandbox';
import { describeWithBubblewrap, makeTaskWorkspace } from '@arvo-rca/sandbox/testing';
import { GreenConfig } from '../../green-config';
import { sandboxOptionsOf } from './sandbox-options';

const configOf = validateEnvironment(GreenConfig);

// LOG_DIR under a tree the local sandbox mirrors read-only (/usr): the run records of earlier runs, fixes
// included, lie there, and a solver must neither list nor read them.
describeWithBubblewrap("the local sandbox and the green agent's run records", () => {
  const name = `arvo-rca-test-${randomUUID()}`;
  const logDir = join('/usr/local/share', name);
  const runDir = join('/usr/local/share', `${name}-run`);
  let tmpDir: string;
  let factory: LocalSandboxFactory;
  let sandbox: Sandbox;

  beforeAll(async () => {
    for (const dir of [join(logDir, 'log_1', 'records'), runDir]) await mkdir(dir, { recursive: true });
    await writeFile(join(logDir, 'log_1', 'records', 'fix.diff'), 'the earlier run\n');
    await writeFile(join(runDir, 'fix.diff'), 'this run\n');
    tmpDir = await mkdtemp('/tmp/arvo-log-dir-');
    const config = configOf({ SANDBOX: 'local', TMP_DIR: tmpDir, LOG_DIR: logDir, LOG_RUN_DIR: runDir });
    factory = new LocalSandboxFactory('bwrap', resolveSandboxOptions(sandboxOptionsOf(config)), new ProcessTable());
    sandbox = factory.create({ task: 'sample:1', contextId: 'ctx', image: 'unused', workspaceDir: await makeTaskWorkspace(tmpDir) });
    await sandbox.start();
  });

  afterAll(async () => {
    await factory?.stopAll();
    for (const dir of [logDir, runDir, tmpDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('neither lists nor reads LOG_DIR and LOG_RUN_DIR, spelled indirectly', async () => {
    // A glob: the command guard refuses the paths themselves.
    const command = `d=/usr/local/share; ls -A "$d"/${name}* 2>&1; cat "$d"/${name}/*/*/fix.diff "$d"/${name}-run/fix.diff 2>&1; echo done`;
    const outcome = await sandbox.exec(command);

    expect(outcome).toMatchObject({ kind: 'ran' });
    expect(outcome.kind === 'ran' ? outcome.output : '').not.toMatch(/earlier run|this run|log_1|fix\.diff\n/);
  });

  it('refuses a command that names LOG_DIR or LOG_RUN_DIR', async () => {
    expect(await sandbox.exec(`cat ${logDir}/log_1/records/fix.diff`)).toMatchObject({ kind: 'rejected' });
    expect(await sandbox.exec(`ls ${runDir}`)).toMatchObject({ kind: 'rejected' });
  });
});
