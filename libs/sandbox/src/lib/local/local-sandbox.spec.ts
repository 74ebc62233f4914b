import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ProcessTable } from '@arvo-rca/common';
import { describeWithBubblewrap } from './bubblewrap-gate.testing';
import type { LocalIsolation } from './local-command';
import { LocalSandboxFactory } from './local-sandbox-factory';
import { NO_ISOLATION_WARNING } from './local-sandbox';
import type { Sandbox } from '../sandbox';
import { makeTaskWorkspace } from '../sandbox-fixtures.testing';
import { resolveSandboxOptions } from '../sandbox-options';

const REPO_SAMPLES = resolve(__dirname, '../../../../../samples');

// Processes on this host whose command line contains `needle`.
async function hostProcesses(needle: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await pids()) {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.replace(/\0/g, ' ').includes(needle)) found.push(`${pid}: ${cmdline}`);
  }
  return found;
}

// Whether a process on this host runs exactly `argv` (not a shell whose script merely names it).
async function runs(argv: string): Promise<boolean> {
  for (const pid of await pids()) {
    if ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim() === argv) return true;
  }
  return false;
}

// Processes on this host in the pid namespace `pid:[inode]`, whatever their names and environments.
async function processesInNamespace(namespace: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await pids()) {
    if ((await readlink(`/proc/${pid}/ns/pid`).catch(() => '')) === namespace) found.push(pid);
  }
  return found;
}

async function pids(): Promise<string[]> {
  return (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
}

interface LocalFixture {
  sandbox: () => Sandbox;
  workspace: () => string;
  cache: () => string;
  progress: string[];
}

function describeLocal(isolation: LocalIsolation, body: (fixture: LocalFixture) => void): void {
  const describeIn = isolation === 'bwrap' ? describeWithBubblewrap : describe;
  describeIn(`LocalSandbox (${isolation})`, () => {
    let root: string;
    let workspace: string;
    let cache: string;
    let factory: LocalSandboxFactory;
    let sandbox: Sandbox;
    const progress: string[] = [];

    beforeAll(async () => {
      root = await mkdtemp('/tmp/arvo-local-');
      // Outside /tmp, which the bubblewrap sandbox replaces anyway.
      cache = await mkdtemp('/var/tmp/arvo-private-cache-');
      await writeFile(join(cache, 'patch.diff'), 'the answer\n');
      workspace = await makeTaskWorkspace(root);
      const options = resolveSandboxOptions({ tmpDir: root, privatePaths: [cache], commandTimeoutS: 20, killAfterS: 1, hostGraceS: 1 });
      factory = new LocalSandboxFactory(isolation, options, new ProcessTable());
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
        kind: 'ran',
        returncode: 4,
        output: 'ERROR: AddressSanitizer: heap-buffer-overflow\nerr\ncat dumb\n',
      });
    });

    it("does not pass the assessor's environment (keys, tokens) to commands", async () => {
      process.env['ARVO_TEST_SECRET'] = 'sk-secret';
      try {
        expect(await sandbox.exec('echo "${ARVO_TEST_SECRET:-none}"')).toMatchObject({ kind: 'ran', output: 'none\n' });
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

    it('refuses a loc.json the solver made a FIFO, a 1.5 GiB sparse file or a link, at once and reading none of it', async () => {
      await sandbox.exec(
        'cd /workspace/shared && mkfifo fifo.json && truncate -s 1536M sparse.json && ln -s /etc/shadow shadow.json && ln -s fifo.json fifo-link.json',
      );
      const refusal = (path: string): Promise<unknown> => sandbox.readFile(`/workspace/shared/${path}`).catch((error: unknown) => error);
      const started = performance.now();
      const refused = await Promise.all(
        ['fifo.json', 'fifo.json', 'fifo.json', 'fifo.json', 'fifo.json', 'sparse.json', 'shadow.json', 'fifo-link.json'].map(refusal),
      );
      expect(refused.map((error) => (error as { code: string }).code)).toEqual([
        ...Array(5).fill('FILE_NOT_REGULAR'),
        'FILE_TOO_LARGE',
        'FILE_NOT_READABLE',
        'FILE_NOT_REGULAR',
      ]);
      expect(performance.now() - started).toBeLessThan(2000);
      await rm(join(workspace, 'shared', 'sparse.json'));
    });

    it('tells a file that is not there (FILE_NOT_FOUND) from one that is there but not read, naming what it is', async () => {
      await sandbox.exec(
        'cd /workspace/shared && mkfifo pipe.json && mkdir folder.json && truncate -s 3G huge.json && ln -s /etc/passwd passwd.json && ln -s gone.json dangling.json',
      );
      const refused = await Promise.all(
        ['gone.json', 'gone/loc.json', 'pipe.json', 'folder.json', 'huge.json', 'passwd.json', 'dangling.json'].map((path) =>
          sandbox.readFile(`/workspace/shared/${path}`).catch((error: unknown) => error),
        ),
      );

      expect(
        refused.map((error) => [
          (error as { code: string }).code,
          (error as Error).message.replace(/^cannot read \S+( in \S+)?: /, '').replace(/ \(in .*$/, ''),
        ]),
      ).toEqual([
        ['FILE_NOT_FOUND', 'it does not exist'],
        ['FILE_NOT_FOUND', 'it does not exist'],
        ['FILE_NOT_REGULAR', 'it is a FIFO, not a regular file'],
        ['FILE_NOT_REGULAR', 'it is a folder, not a regular file'],
        ['FILE_TOO_LARGE', 'it is larger than 8388608 bytes'],
        ['FILE_NOT_READABLE', 'it is a symbolic link that leads out of the workspace'],
        ['FILE_NOT_REGULAR', 'it is a symbolic link that leads nowhere'],
      ]);
      await rm(join(workspace, 'shared', 'huge.json'));
    });

    it("refuses commands that name the assessor's private files", async () => {
      expect(await sandbox.exec(`cat ${cache}/patch.diff`)).toMatchObject({ kind: 'rejected' });
    });

    it('returns -1 and the partial output on timeout, and kills what stayed in the group or left it with setsid', async () => {
      const outcome = await sandbox.exec('echo started; setsid sleep 5151 >/dev/null 2>&1 & env -i sleep 5153 >/dev/null 2>&1 & sleep 5152', { timeoutS: 1 });

      expect(outcome).toMatchObject({ kind: 'ran', returncode: -1, output: 'started\n', timedOut: 'command timed out after 1 s' });
      expect(await hostProcesses('sleep 515')).toEqual([]);
    }, 20_000);
  });
}

describeLocal('bwrap', ({ sandbox, workspace, cache }) => {
  let sources: string;

  // Another sandbox of the same task, with private paths of its own; stopped by the test.
  async function otherSandbox(privatePaths: string[] = []): Promise<Sandbox> {
    const options = resolveSandboxOptions({ tmpDir: dirname(dirname(workspace())), privatePaths, commandTimeoutS: 20, killAfterS: 1 });
    const other = new LocalSandboxFactory('bwrap', options, new ProcessTable()).create({
      task: 'sample:1',
      contextId: 'ctx',
      image: 'unused',
      workspaceDir: workspace(),
    });
    await other.start();
    return other;
  }

  beforeAll(async () => {
    // A task source read in place (SAMPLES_DIR, an ARVO_DATA_URL that is a folder), outside the workspace.
    sources = await mkdtemp('/var/tmp/arvo-samples-');
    await mkdir(join(sources, '1'));
    await writeFile(join(sources, '1', 'patch.diff'), 'the answer\n');
  });

  afterAll(async () => {
    await rm(sources, { recursive: true, force: true });
  });

  it('shows the command the workspace at /workspace and no network but loopback', async () => {
    expect(await sandbox().exec("pwd; ls /workspace; tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '")).toMatchObject({
      kind: 'ran',
      returncode: 0,
      output: '/workspace\n1_error.txt\nshared\nlo\n',
    });
  });

  it("shows of the host only the system's trees, a few files of /etc, and fresh /proc, /dev and /tmp", async () => {
    const outcome = await sandbox().exec('ls -A /; echo --; ls -A /etc');
    const [root, etc] =
      outcome.kind === 'ran' && outcome.timedOut === undefined ? outcome.output.split('--\n').map((list) => list.split('\n').filter(Boolean)) : [[], []];

    expect(root).toEqual(expect.arrayContaining(['etc', 'proc', 'dev', 'tmp', 'usr', 'workspace']));
    for (const entry of root) expect(['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32', 'usr', 'etc', 'proc', 'dev', 'tmp', 'workspace']).toContain(entry);
    const config = [
      'alternatives',
      'ld.so.cache',
      'ld.so.conf',
      'ld.so.conf.d',
      'passwd',
      'group',
      'nsswitch.conf',
      'hosts',
      'localtime',
      'timezone',
      'os-release',
    ];
    for (const entry of etc) expect(config).toContain(entry);
  });

  it("finds no patch.diff anywhere: not in the private cache, a task source read in place, or the repository's samples", async () => {
    expect((await readdir(join(REPO_SAMPLES, '1'))).includes('patch.diff')).toBe(true);
    expect((await readdir(join(sources, '1'))).includes('patch.diff')).toBe(true);

    expect(await sandbox().exec('find / -name patch.diff 2>/dev/null; echo searched', { timeoutS: 60 })).toMatchObject({
      kind: 'ran',
      output: 'searched\n',
    });
  }, 90_000);

  it('keeps the system read-only and gives commands no capability', async () => {
    const command = `touch /usr/arvo-test 2>&1 | grep -c Read-only; grep CapEff /proc/self/status; ls -A ${dirname(cache())} 2>&1 | grep -c 'No such'`;

    expect(await sandbox().exec(command)).toMatchObject({ kind: 'ran', output: '1\nCapEff:\t0000000000000000\n1\n' });
  });

  it("runs the system's tools: the shell, coreutils, grep, find, sed, user names, and cc where it is installed", async () => {
    const tools = "echo hello > /tmp/t && grep -c hello /tmp/t && find /workspace -name 1_error.txt && sed 's/l/L/g' /tmp/t && id -un";
    expect(await sandbox().exec(tools)).toMatchObject({ kind: 'ran', returncode: 0, output: `1\n/workspace/1_error.txt\nheLLo\n${userInfo().username}\n` });

    if (spawnSync('cc', ['--version']).status !== 0) return console.warn('SKIPPED, no cc on this host: compiling in the local sandbox');
    const compile = "printf 'int main(void) { return 3; }\\n' > /tmp/m.c && cc -o /workspace/m /tmp/m.c && /workspace/m; echo $?";
    expect(await sandbox().exec(compile)).toMatchObject({ kind: 'ran', returncode: 0, output: '3\n' });
  }, 30_000);

  it('leaves nothing of a timed-out command alive: new sessions, a cleared environment, renamed processes, a fork storm', async () => {
    const storm = 'storm() { [ "$1" -gt 0 ] && { storm $(($1 - 1)) & storm $(($1 - 1)) & }; exec -a arvo-storm sleep 5171; }';
    const command = [
      'readlink /proc/self/ns/pid',
      'env -i setsid sleep 5172 >/dev/null 2>&1 &',
      '(exec -a kworker-arvo sleep 5173 >/dev/null 2>&1 &)',
      `${storm}; storm 6 >/dev/null 2>&1 &`,
      'sleep 5174',
    ].join('\n');
    const outcome = await sandbox().exec(command, { timeoutS: 2 });
    const namespace = outcome.kind === 'ran' && outcome.timedOut !== undefined ? outcome.output.trim() : '';

    expect(namespace).toMatch(/^pid:\[\d+\]$/);
    expect(await processesInNamespace(namespace)).toEqual([]);
    expect(await hostProcesses('sleep 517')).toEqual([]);
    expect(await hostProcesses('arvo-storm')).toEqual([]);
    expect(await hostProcesses('kworker-arvo')).toEqual([]);
  }, 30_000);

  it('keeps the time limit of a command that tries to stop it', async () => {
    // `timeout` is the shell's parent and pid 1 of the namespace, which ignores SIGSTOP from inside.
    const outcome = await sandbox().exec('echo started; kill -STOP $PPID; sleep 5161', { timeoutS: 1 });

    expect(outcome).toMatchObject({ kind: 'ran', returncode: -1, output: 'started\n', timedOut: 'command timed out after 1 s' });
    expect(await hostProcesses('sleep 516')).toEqual([]);
  }, 20_000);

  it('kills a running command and everything it started when the sandbox stops', async () => {
    const other = await otherSandbox();
    const running = other.exec('readlink /proc/self/ns/pid; env -i setsid sleep 5191 >/dev/null 2>&1 & sleep 5192');
    while (!(await runs('sleep 5192'))) await new Promise((resolve) => setTimeout(resolve, 50));

    await other.stop();
    const outcome = await running;
    const namespace = outcome.kind === 'ran' && outcome.timedOut === undefined ? outcome.output.trim() : '';

    expect(namespace).toMatch(/^pid:\[\d+\]$/);
    expect(await processesInNamespace(namespace)).toEqual([]);
    expect(await hostProcesses('sleep 519')).toEqual([]);
  }, 20_000);

  it("covers a private folder should it lie in the system's trees", async () => {
    const shared = (await readdir('/usr/share', { withFileTypes: true })).find((entry) => entry.isDirectory() && !entry.isSymbolicLink());
    if (!shared) return console.warn('SKIPPED, no folder in /usr/share: covering a private folder');
    const other = await otherSandbox([join('/usr/share', shared.name)]);
    try {
      // Spelled indirectly: the command guard refuses the path itself.
      expect(await other.exec(`d=/usr/share; ls -A "$d/${shared.name}" | wc -l`)).toMatchObject({ kind: 'ran', output: '0\n' });
    } finally {
      await other.stop();
    }
  });

  it('kills everything a command left running when it ends, timed out or not', async () => {
    const outcome = await sandbox().exec('readlink /proc/self/ns/pid; env -i setsid sleep 5181 >/dev/null 2>&1 &');
    const namespace = outcome.kind === 'ran' && outcome.timedOut === undefined ? outcome.output.trim() : '';

    expect(namespace).toMatch(/^pid:\[\d+\]$/);
    expect(await processesInNamespace(namespace)).toEqual([]);
  });
});

describeLocal('process', ({ sandbox, workspace, progress }) => {
  it('warns loudly that nothing is isolated', () => {
    expect(progress).toContainEqual(expect.stringContaining(NO_ISOLATION_WARNING));
  });

  it('maps /workspace in commands to the host folder of the workspace', async () => {
    expect(await sandbox().exec('pwd; ls /workspace')).toMatchObject({ kind: 'ran', output: `${workspace()}\n1_error.txt\nshared\n` });
  });

  it('kills the command at the host deadline when it stops its own time limit, and the next command works', async () => {
    // `timeout` is the shell's parent: stopped, it never fires.
    const outcome = await sandbox().exec('echo started; kill -STOP $PPID; sleep 5161 >/dev/null 2>&1 & sleep 5162', { timeoutS: 1 });

    expect(outcome).toMatchObject({
      kind: 'ran',
      returncode: -1,
      output: 'started\n',
      timedOut: 'command timed out after 1 s and did not stop; it was killed',
    });
    expect(await hostProcesses('sleep 516')).toEqual([]);
    expect(await sandbox().exec('echo next')).toMatchObject({ kind: 'ran', returncode: 0, output: 'next\n' });
  }, 20_000);

  it('reaches the host, as it says it does', async () => {
    expect(await sandbox().exec(`ls ${REPO_SAMPLES}/1/patch.diff`)).toMatchObject({ kind: 'ran', returncode: 0 });
  });
});
