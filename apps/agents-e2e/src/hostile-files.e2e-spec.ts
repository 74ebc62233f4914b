import { readFileSync } from 'node:fs';
import type { PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { describeWithBubblewrap } from '@arvo-rca/sandbox/testing';
import type { AgentProcess } from './support/processes/agent-processes';
import { Arena } from './support/stand-ins/hostile-arena';

// The files a hostile solver leaves for the green agent to read: loc.json itself, and the sources it names.
const TREE = '/workspace/src-vul/tlvkit/src';
const LOC_JSON = '/workspace/shared/loc.json';
const FIFO_LOC_JSON = `mkfifo ${LOC_JSON}`;
const SPARSE_LOC_JSON = `truncate -s 1536M ${LOC_JSON}`;
const LINKED_LOC_JSON = `ln -s /etc/shadow ${LOC_JSON}`;
const PASSWD_LOC_JSON = `ln -s /etc/passwd ${LOC_JSON}`;
const FOLDER_LOC_JSON = `mkdir ${LOC_JSON}`;
// What the record says of a loc.json that is there but not read: the sandbox's reason.
const REFUSED = 'loc.json could not be read: ';
const naming = (files: string[]): string =>
  JSON.stringify({
    reasoning: 'hostile',
    locations: files.map((file) => ({ file: `src/${file}`, function: 'f', line_start: 1, line_end: 2, description: 'x' })),
  });
const NAMED_FILES = `cd ${TREE} && mkfifo pipe.c && truncate -s 1536M huge.c && ln -s /etc/shadow shadow.c && ln -s /dev/zero zero.c && printf '%s' '${naming(['pipe.c', 'huge.c', 'shadow.c', 'zero.c'])}' > ${LOC_JSON}`;
const SOLVED = `printf '%s' '${JSON.stringify({ reasoning: 'r', locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'd' }] })}' > ${LOC_JSON}`;

// More FIFO tasks than libuv has file-I/O threads (UV_THREADPOOL_SIZE=4): one held each would leave none.
const FIFO_TASKS = 6;
const THREADS = '4';
// The green's memory may grow this much over all the hostile tasks (a sparse file read whole is 1.5 GiB).
const RSS_GROWTH_LIMIT_MB = 200;
// A normal task scores within this once the hostile ones are done; a wedged agent never would.
const PROMPT_MS = 120_000;
const SIGTERM_MS = 20_000;
const TEST_TIMEOUT_MS = 900_000;

describeWithDocker('a hostile solver leaving FIFOs, sparse files and links for the green agent to read, on the Docker sandbox', () => {
  // The engine tars a link without following it, and says where it points.
  hostileFileSuite({ SANDBOX: 'docker' }, (target) => `it is a symbolic link (to ${target}), not a regular file`);
});

describeWithBubblewrap('a hostile solver leaving FIFOs, sparse files and links for the green agent to read, on the local sandbox with bubblewrap', () => {
  hostileFileSuite({ SANDBOX: 'local' }, () => 'it is a symbolic link that leads out of the workspace');
});

/** `linkReason`: how the sandbox names a loc.json that is a link to `target` outside the workspace. */
function hostileFileSuite(env: NodeJS.ProcessEnv, linkReason: (target: string) => string): void {
  const arena = new Arena();
  let green: AgentProcess;
  let rssBeforeMB: number;

  beforeAll(async () => {
    await arena.open();
    ({ green } = await arena.startGreen({ ...env, UV_THREADPOOL_SIZE: THREADS }));
    // One normal task first, so that what a task costs anyway is in the baseline.
    expect(await statusAfter(green, [SOLVED])).toBe('scored');
    rssBeforeMB = rssOfMB(green);
  }, TEST_TIMEOUT_MS);

  afterEach(() => arena.settle(), TEST_TIMEOUT_MS);
  afterAll(() => arena.close(), TEST_TIMEOUT_MS);

  it(
    `scores ${FIFO_TASKS} tasks whose loc.json is a FIFO as an invalid submission, saying it is a FIFO, each at once`,
    async () => {
      for (let index = 0; index < FIFO_TASKS; index++) {
        expect(await metricsAfter(green, [FIFO_LOC_JSON])).toMatchObject({
          status: 'invalid_submission',
          detail: `${REFUSED}it is a FIFO, not a regular file`,
        });
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'scores a loc.json that is a 1.5 GiB sparse file, a folder, or a link to /etc/shadow or /etc/passwd, as an invalid submission saying what it is, and none at all as no submission',
    async () => {
      const invalid = (detail: string): object => ({ status: 'invalid_submission', detail: `${REFUSED}${detail}` });
      expect(await metricsAfter(green, [SPARSE_LOC_JSON])).toMatchObject(invalid('it is larger than 8388608 bytes'));
      expect(await metricsAfter(green, [FOLDER_LOC_JSON])).toMatchObject(invalid('it is a folder, not a regular file'));
      expect(await metricsAfter(green, [LINKED_LOC_JSON])).toMatchObject(invalid(linkReason('/etc/shadow')));
      expect(await metricsAfter(green, [PASSWD_LOC_JSON])).toMatchObject(invalid(linkReason('/etc/passwd')));
      expect(await metricsAfter(green, ['true'])).toMatchObject({ status: 'no_submission', detail: 'no loc.json was written' });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'scores a loc.json naming a FIFO, a 1.5 GiB sparse file and links to /etc/shadow and /dev/zero, and shows none of them',
    async () => {
      for (let index = 0; index < FIFO_TASKS; index++) {
        const { status, events } = await outcomeAfter(green, [NAMED_FILES]);
        expect(status).toBe('scored');
        expect(JSON.stringify(events)).not.toMatch(/root:[^:]*:\d+:/);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'still scores a normal task promptly, with its memory grown by little',
    async () => {
      const started = Date.now();
      expect(await statusAfter(green, [SOLVED])).toBe('scored');
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
      expect(rssOfMB(green) - rssBeforeMB).toBeLessThan(RSS_GROWTH_LIMIT_MB);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    `stops within ${SIGTERM_MS / 1000} s of SIGTERM and leaves nothing behind`,
    async () => {
      const started = Date.now();
      expect(await arena.stopAndList()).toEqual({ containers: [], taskFolders: [] });
      expect(Date.now() - started).toBeLessThan(SIGTERM_MS);
    },
    TEST_TIMEOUT_MS,
  );

  /** Runs one task whose solver sends `commands` and ends; the task's status once the green agent scored it. */
  async function statusAfter(agent: AgentProcess, commands: string[]): Promise<string | undefined> {
    return (await outcomeAfter(agent, commands)).status;
  }

  /** The task's metrics once the green agent scored it: its status and detail among them. */
  async function metricsAfter(agent: AgentProcess, commands: string[]): Promise<{ status?: string; detail?: string } | undefined> {
    return (await outcomeAfter(agent, commands)).metrics;
  }

  async function outcomeAfter(
    agent: AgentProcess,
    commands: string[],
  ): Promise<{ status: string | undefined; metrics: { status?: string; detail?: string } | undefined; events: PeerEvent[] }> {
    const { task, heard } = await arena.attack(agent);
    for (const command of commands) {
      const reply = await task.run(command);
      if (reply.kind !== 'result' || reply.result.returncode !== 0) throw new Error(`${command}: ${JSON.stringify(reply)}`);
    }
    task.end();
    const events = await within(
      heard,
      PROMPT_MS,
      `the task after ${commands.join('; ')} was not scored within ${PROMPT_MS / 1000} s\n${agent.log.slice(-3000)}`,
    );
    const artifact = events.find((event) => event.kind === 'artifact');
    const outcome = artifact?.kind === 'artifact' ? (artifact.data[0] as { metrics?: { status?: string; detail?: string } }) : undefined;
    return { status: outcome?.metrics?.status, metrics: outcome?.metrics, events };
  }
}

/** The green agent's resident memory, from the kernel. */
function rssOfMB(agent: AgentProcess): number {
  const status = readFileSync(`/proc/${agent.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}

async function within<T>(promise: Promise<T>, ms: number, why: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error(why)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
