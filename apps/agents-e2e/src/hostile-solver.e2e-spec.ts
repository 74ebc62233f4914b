import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { AssessorReply, PeerEvent } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import { describeWithBubblewrap } from '@arvo-rca/sandbox/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { SAMPLES_DIR, type AgentProcess, type Scratch } from './support/processes/agent-processes';
import { Arena } from './support/stand-ins/hostile-arena';
import type { HostileTask } from './support/stand-ins/hostile-solver';
import { effectiveUidThrough, itAsRoot, NOBODY, runAsNobody, setuidFilesNobodyReaches, setuidFilesUnder } from './support/engines/host-probes';

// The attacks of issue 11, played by a scripted solver against the real green agent process.
const PLANT_SETUID_SHELLS =
  'cp /bin/sh /workspace/sh && chmod 4755 /workspace/sh && cp /bin/sh /workspace/shared/sh && chmod 4755 /workspace/shared/sh && ' +
  'stat -c "%a %u %n" /workspace/sh /workspace/shared/sh && sha256sum /workspace/sh';
// Each call forks one copy into the background and one in the foreground: the command never returns by itself.
const FORK_BOMB = ':(){ :|: & :|: ; }; :';
const COUNT_PROCESSES = "ls /proc | grep -c '^[0-9]'";
const LIST_PROCESSES = 'for p in /proc/[0-9]*; do tr "\\0" " " < "$p/cmdline" 2>/dev/null; echo; done';
const SEARCH_ANSWER = 'find / -name patch.diff 2>/dev/null; echo searched';
const FILL_DISK = 'head -c 200M /dev/zero > /workspace/fill; ls -l /workspace/fill';
// Empty files as fast as a shell makes them (no bytes to speak of, one inode each), until the task is ended.
const FILE_BOMB = 'mkdir -p /workspace/bomb && cd /workspace/bomb && i=0; while :; do touch $(seq -f "f$i-%g" 1 1000); i=$((i+1)); done';
const FILES_BOUND = '5000';

// Short enough to wait for, long enough for a loaded machine to start what the attacks start.
const SHORT_TIMEOUT_S = 5;
// Generous: the machine may be loaded. Each test is bound by the events it waits for, not by this.
const TEST_TIMEOUT_MS = 600_000;

describeWithDocker('a hostile solver against the green agent on the Docker sandbox', () => {
  const arena = new Arena();
  // Commands may run long (a search of the whole filesystem); the disk limit is small enough to pass.
  let patient: { green: AgentProcess; scratch: Scratch };
  // Commands time out after a few seconds, with few processes allowed: attacks that must be cut short.
  let impatient: { green: AgentProcess; scratch: Scratch };

  beforeAll(async () => {
    await arena.open();
    patient = await arena.startGreen({ SANDBOX: 'docker', CONTAINER_DISK: '64m', CONTAINER_PIDS: '256' });
    impatient = await arena.startGreen({ SANDBOX: 'docker', COMMAND_TIMEOUT_S: String(SHORT_TIMEOUT_S), CONTAINER_PIDS: '256' });
  }, TEST_TIMEOUT_MS);

  afterEach(() => arena.settle(), TEST_TIMEOUT_MS);
  afterAll(() => arena.close(), TEST_TIMEOUT_MS);

  itAsRoot(
    'plants a setuid root shell in /workspace and /workspace/shared, and no host user gains root through it',
    async () => {
      const { task, heard } = await arena.attack(patient.green);
      const planted = resultOf(await task.run(PLANT_SETUID_SHELLS));
      // Inside its container the attack works: two root-owned setuid shells.
      expect(planted.returncode).toBe(0);
      expect(planted.output).toContain('4755 0 /workspace/sh\n4755 0 /workspace/shared/sh\n');

      // While the task runs: nothing set-id in the green agent's folders, and no copy of the shell that
      // `nobody` can reach anywhere on the host.
      expect(await setuidFilesUnder([patient.scratch.dir])).toEqual([]);
      await expectNoRootForNobody(patient.scratch.tasks, plantedShellHash(planted));

      task.end();
      expect(outcomeOf(await heard)).toMatchObject({ finish_reason: 'solver-ended', metrics: { status: 'no_submission' } });
      expect(await setuidFilesUnder([patient.scratch.dir])).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'cuts a fork bomb short at the command timeout, and the next command sees fewer than 20 processes',
    async () => {
      const { task } = await arena.attack(impatient.green);
      const bomb = resultOf(await task.run(FORK_BOMB));
      expect(bomb.returncode).toBe(-1);
      expect(bomb.timedOut).toMatch(new RegExp(`timed out after ${SHORT_TIMEOUT_S} s.*every process of the task was ended`));

      const count = resultOf(await task.run(COUNT_PROCESSES));
      expect(count.returncode).toBe(0);
      expect(Number(count.output.trim())).toBeLessThan(20);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'ends a process that cleared its environment and left for a new session, once its command times out',
    async () => {
      const { task } = await arena.attack(impatient.green);
      // The command itself shows the escaped process running before the time limit cuts it short.
      const escape = resultOf(
        await task.run(`env -i setsid sleep 1000 & until (${LIST_PROCESSES}) | grep -q '^sleep 1000'; do sleep 0.1; done; echo escaped; sleep 600`),
      );
      expect(escape.returncode).toBe(-1);
      expect(escape.output).toContain('escaped');

      const after = resultOf(await task.run(LIST_PROCESSES));
      expect(after.returncode).toBe(0);
      expect(after.output).not.toContain('sleep 1000');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'finds no patch.diff anywhere in its container',
    async () => {
      const { task } = await arena.attack(patient.green);
      expect(resultOf(await task.run(SEARCH_ANSWER))).toEqual({ returncode: 0, output: 'searched\n' });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'fills its disk past CONTAINER_DISK, and its task ends with the status disk_limit_exceeded',
    async () => {
      const { task, result } = await arena.assess(patient.green);
      const fill = resultOf(await task.run(FILL_DISK));
      expect(fill.output).toMatch(/ 209715200 .*\/workspace\/fill/);
      // Harmless commands from now on, until the green agent ends the task and refuses them.
      // The refusal is a task of its own that ends rejected, which the solver's client reports as such.
      expect(await keepBusyUntilRefused(task)).toEqual({
        kind: 'failed',
        reason: expect.stringMatching(/: task rejected: Command rejected: no running task has this context id \(unknown or finished\)$/),
      });

      expect((await result).task_metrics['sample:1']).toMatchObject({
        status: 'disk_limit_exceeded',
        detail: expect.stringMatching(/past its disk limit of 64\.0 MiB/),
      });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'makes empty files as fast as it can past CONTAINER_FILES, and its task ends with the status disk_limit_exceeded, naming files',
    async () => {
      const { green } = await arena.startGreen({ SANDBOX: 'docker', CONTAINER_FILES: FILES_BOUND });
      await expectFileBombEnded(arena, green, "the task's container");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'leaves no container with its owner id on the engine and nothing in TMP_DIR once stopped',
    async () => {
      expect(await arena.stopAndList()).toEqual({ containers: [], taskFolders: [] });
    },
    TEST_TIMEOUT_MS,
  );
});

describeWithBubblewrap('a hostile solver against the green agent on the local sandbox with bubblewrap', () => {
  const arena = new Arena();
  let local: { green: AgentProcess; scratch: Scratch };

  beforeAll(async () => {
    await arena.open();
    local = await arena.startGreen({ SANDBOX: 'local' });
  }, TEST_TIMEOUT_MS);

  afterEach(() => arena.settle(), TEST_TIMEOUT_MS);
  afterAll(() => arena.close(), TEST_TIMEOUT_MS);

  it(
    'finds no patch.diff anywhere in its sandbox, though the sample it runs keeps one on the host',
    async () => {
      expect(existsSync(join(SAMPLES_DIR, '1', 'patch.diff'))).toBe(true);
      const { task } = await arena.attack(local.green);
      expect(resultOf(await task.run(SEARCH_ANSWER))).toEqual({ returncode: 0, output: 'searched\n' });
    },
    TEST_TIMEOUT_MS,
  );

  itAsRoot(
    'finds no patch.diff of a task source kept under /usr, which the sandbox shows of the host, nor reads it by a path the guard does not know',
    async () => {
      // Under a system tree the sandbox mirrors read-only: only covering the source keeps it out of sight.
      const samples = mkdtempSync('/usr/local/share/arvo-rca-e2e-samples-');
      try {
        cpSync(join(SAMPLES_DIR, '1'), join(samples, '1'), { recursive: true });
        const { green } = await arena.startGreen({ SANDBOX: 'local', SAMPLES_DIR: samples });
        const { task } = await arena.attack(green);
        expect(resultOf(await task.run(SEARCH_ANSWER))).toEqual({ returncode: 0, output: 'searched\n' });
        const read = resultOf(await task.run(`cd /usr/local/share && cat arvo-rca-e2e-samples-*/1/patch.diff; ls arvo-rca-e2e-samples-*/ 2>&1; echo read`));
        expect(read.output).not.toContain('+++');
        expect(read.output).toMatch(/read\n$/);
        expect(read.output).not.toMatch(/^1$/m);
      } finally {
        rmSync(samples, { recursive: true, force: true });
      }
    },
    TEST_TIMEOUT_MS,
  );

  itAsRoot(
    'plants a setuid shell in /workspace and /workspace/shared, and no host user gains root through it',
    async () => {
      const { task, heard } = await arena.attack(local.green);
      const planted = resultOf(await task.run(PLANT_SETUID_SHELLS));
      expect(planted.returncode).toBe(0);

      await expectNoRootForNobody(local.scratch.tasks, plantedShellHash(planted));

      task.end();
      await heard;
      expect(await setuidFilesUnder([local.scratch.dir])).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'makes empty files as fast as it can past CONTAINER_FILES, and its task ends with the status disk_limit_exceeded, naming files',
    async () => {
      const { green } = await arena.startGreen({ SANDBOX: 'local', CONTAINER_FILES: FILES_BOUND });
      await expectFileBombEnded(arena, green, "the task's workspace");
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'leaves nothing in TMP_DIR once stopped',
    async () => {
      expect(await arena.stopAndList()).toEqual({ containers: [], taskFolders: [] });
    },
    TEST_TIMEOUT_MS,
  );
});

/**
 * What `nobody` gets out of every setuid file it can reach on the host that is the planted shell or lies
 * under the green agent's TMP_DIR: each one is run with `-p` and its effective uid read. There must be
 * none; and the scan must be real (it sees the host's own setuid programs, and runs as nobody).
 */
async function expectNoRootForNobody(tmpDir: string, shellHash: string): Promise<void> {
  expect((await runAsNobody(['id', '-u'])).stdout.trim()).toBe(String(NOBODY.uid));
  const reachable = await setuidFilesNobodyReaches();
  expect(reachable.some((file) => file.path.startsWith('/usr/'))).toBe(true);
  const candidates = reachable.filter((file) => file.sha256 === shellHash || file.path.startsWith(`${tmpDir}/`));
  const tried = [];
  for (const file of candidates) tried.push({ path: file.path, euid: await effectiveUidThrough(file.path) });
  expect(tried).toEqual([]);
}

/**
 * Runs FILE_BOMB as the solver of an assessment on `green`: the green agent ends its task, long before the
 * command's 120 s, with a detail that names the files its `subject` made.
 */
async function expectFileBombEnded(arena: Arena, green: AgentProcess, subject: string): Promise<void> {
  const { task, result } = await arena.assess(green);
  const began = performance.now();
  // The command never ends by itself: the task's end ends it (as a result, or a refused call).
  await task.run(FILE_BOMB).catch(() => undefined);
  expect(await keepBusyUntilRefused(task)).toMatchObject({ kind: 'failed' });
  expect((await result).task_metrics['sample:1']).toMatchObject({
    status: 'disk_limit_exceeded',
    detail: expect.stringMatching(new RegExp(`${subject} made [\\d,]+ files, past its limit of 5,000 \\(CONTAINER_FILES\\)`)),
  });
  expect(performance.now() - began).toBeLessThan(100_000);
}

/** Sends harmless commands until the green agent refuses one (its task is over: the call fails) or stops answering. */
async function keepBusyUntilRefused(task: HostileTask): Promise<AssessorReply | { kind: 'failed'; reason: string }> {
  for (;;) {
    const reply = await task.run('echo still here').catch((error: Error) => ({ kind: 'failed' as const, reason: error.message }));
    if (reply.kind !== 'result') return reply;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The sha256 that PLANT_SETUID_SHELLS prints last. */
function plantedShellHash(planted: CommandResult): string {
  const hash = planted.output.trim().split('\n').at(-1)?.split(' ')[0] ?? '';
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  return hash;
}

function resultOf(reply: AssessorReply): CommandResult {
  if (reply.kind !== 'result') throw new Error(`expected a command result, got ${JSON.stringify(reply)}`);
  return reply.result;
}

/** The task outcome in the `Result` artifact of a plain task request. */
function outcomeOf(events: PeerEvent[]): unknown {
  const artifact = events.find((event) => event.kind === 'artifact');
  return artifact?.kind === 'artifact' ? artifact.data[0] : undefined;
}
