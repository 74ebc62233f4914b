import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { bubblewrapWorks } from './bubblewrap';
import type { LocalIsolation } from './local-environment';
import { NO_ISOLATION_WARNING } from './local-environment';
import { ProcessTable } from './process-table';
import type { Sandbox } from './sandbox';
import { LocalSandboxFactory } from './sandbox-factory';
import { makeTaskWorkspace } from './sandbox-fixtures.testing';
import { resolveSandboxOptions } from './sandbox-options';

// Processes on this host whose command line contains `needle`.
async function hostProcesses(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.replace(/\0/g, ' ').includes(needle)) found.push(`${pid}: ${cmdline}`);
  }
  return found;
}

function describeLocal(isolation: LocalIsolation, body: (context: { sandbox: () => Sandbox; workspace: () => string; cache: () => string; progress: string[] }) => void): void {
  const usable = isolation === 'process' || bubblewrapWorks();
  if (!usable) console.warn('SKIPPED, bwrap is not installed or cannot run here: the local sandbox in bubblewrap');
  (usable ? describe : describe.skip)(`ArvoLocalEnvironment (${isolation})`, () => {
    let root: string;
    let workspace: string;
    let cache: string;
    let factory: LocalSandboxFactory;
    let sandbox: Sandbox;
    const progress: string[] = [];

    beforeAll(async () => {
      root = await mkdtemp('/tmp/arvo-local-');
      // Outside /tmp, which the bubblewrap sandbox replaces anyway: hiding must be what keeps it out of sight.
      cache = await mkdtemp('/var/tmp/arvo-private-cache-');
      await writeFile(join(cache, 'patch.diff'), 'the answer\n');
      workspace = await makeTaskWorkspace(root);
      factory = new LocalSandboxFactory(isolation, resolveSandboxOptions({ tmpDir: root, privatePaths: [cache], commandTimeoutS: 20, killAfterS: 1 }), new ProcessTable());
      sandbox = factory.create({ task: 'sample:1', contextId: 'ctx', image: 'unused', workspaceDir: workspace, onProgress: (line) => progress.push(line) });
      await sandbox.start();
    });

    afterAll(async () => {
      await factory.stopAll();
      await rm(root, { recursive: true, force: true });
      await rm(cache, { recursive: true, force: true });
    });

    body({ sandbox: () => sandbox, workspace: () => workspace, cache: () => cache, progress });

    it('runs a command in the workspace, with stdout and stderr merged in order and stdin closed', async () => {
      expect(await sandbox.exec('cat /workspace/1_error.txt; echo err >&2; cat; echo "$PAGER $TERM"; exit 4')).toMatchObject({
        kind: 'completed',
        returnCode: 4,
        output: 'ERROR: AddressSanitizer: heap-buffer-overflow\nerr\ncat dumb\n',
      });
    });

    it('does not pass the assessor\'s environment (keys, tokens) to commands', async () => {
      process.env['ARVO_TEST_SECRET'] = 'sk-secret';
      try {
        expect(await sandbox.exec('echo "${ARVO_TEST_SECRET:-none}"')).toMatchObject({ kind: 'completed', output: 'none\n' });
      } finally {
        delete process.env['ARVO_TEST_SECRET'];
      }
    });

    it('reads files the command wrote under /workspace, and no file a link leads out to', async () => {
      await sandbox.exec('echo \'{"locations": []}\' > /workspace/shared/loc.json');
      await symlink('/etc/hostname', join(workspace, 'shared', 'escape.json'));

      expect((await sandbox.readFile('/workspace/shared/loc.json')).toString()).toBe('{"locations": []}\n');
      await expect(sandbox.readFile('/workspace/shared/escape.json')).rejects.toMatchObject({ code: 'FILE_NOT_READABLE' });
      await expect(sandbox.readFile('/etc/hostname')).rejects.toMatchObject({ code: 'FILE_NOT_READABLE' });
    });

    it("refuses commands that name the assessor's private files", async () => {
      expect(await sandbox.exec(`cat ${cache}/patch.diff`)).toMatchObject({ kind: 'rejected' });
    });

    it('returns -1 and the partial output on timeout, and kills every process of the command', async () => {
      const outcome = await sandbox.exec('echo started; setsid sleep 5151 >/dev/null 2>&1 & sleep 5152', { timeoutS: 1 });
      await new Promise((resolve) => setTimeout(resolve, 200));

      expect(outcome).toMatchObject({ kind: 'timeout', returnCode: -1, output: 'started\n', note: 'command timed out after 1 s' });
      expect(await hostProcesses('sleep 515')).toEqual([]);
    }, 20_000);
  });
}

describeLocal('bwrap', ({ sandbox, cache }) => {
  it('shows the command the workspace at /workspace and no network but loopback', async () => {
    expect(await sandbox().exec("pwd; ls /workspace; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")).toMatchObject({
      kind: 'completed',
      returnCode: 0,
      output: '/workspace\n1_error.txt\nshared\nlo\n',
    });
  });

  it('hides private folders even from a command that spells their path indirectly, and keeps the host read-only', async () => {
    const command = `d=${dirname(cache())}; ls -A "$d/${basename(cache())}" | wc -l; touch /usr/arvo-test 2>&1 | grep -c Read-only`;

    expect(await sandbox().exec(command)).toMatchObject({ kind: 'completed', output: '0\n1\n' });
  });
});

describeLocal('process', ({ sandbox, workspace, progress }) => {
  it('warns loudly that nothing is isolated', () => {
    expect(progress).toContainEqual(expect.stringContaining(NO_ISOLATION_WARNING));
  });

  it('maps /workspace in commands to the host folder of the workspace', async () => {
    expect(await sandbox().exec('pwd; ls /workspace')).toMatchObject({ kind: 'completed', output: `${workspace()}\n1_error.txt\nshared\n` });
  });
});
