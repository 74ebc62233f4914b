import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { describeWithBubblewrap } from '@arvo-rca/sandbox/testing';
import type { PeerEvent } from '@arvo-rca/a2a-protocol';
import type { AgentProcess, Scratch } from './support/processes/agent-processes';
import { Arena } from './support/stand-ins/hostile-arena';

// The flood measured against the landed build (issue 34): 60 KB status texts for 10 s wrote 954 MB of run
// logs and 954 MB of console. The green agent's logs must stay under 20 MB of each, whatever the sandbox.
const STATUS = 'w'.repeat(60_000);
const FLOOD_MS = 10_000;
const MAX_BYTES = 20 * 1000 * 1000;
// A bound small enough for 10 s of heads of status texts to pass on any machine.
const TASK_BOUND = 512 * 1024;
const TEST_TIMEOUT_MS = 600_000;

for (const [describeFor, sandbox] of [
  [describeWithDocker, 'docker'],
  [describeWithBubblewrap, 'local'],
] as const) {
  describeFor(`a solver flooding the green agent with status texts, on the ${sandbox} sandbox`, () => {
    const arena = new Arena();

    beforeAll(() => arena.open(), TEST_TIMEOUT_MS);
    afterEach(() => arena.settle(), TEST_TIMEOUT_MS);
    afterAll(() => arena.close(), TEST_TIMEOUT_MS);

    it(
      'leaves under 20 MB of run logs and of console for 10 s of 60 KB status texts, each line showing a head of the text',
      async () => {
        const { green, scratch } = await arena.startGreen({ SANDBOX: sandbox });
        const consoleBefore = Buffer.byteLength(green.log);
        const sent = await flood(green);

        expect(bytesUnder(scratch.logs)).toBeLessThan(MAX_BYTES);
        expect(Buffer.byteLength(green.log) - consoleBefore).toBeLessThan(MAX_BYTES);
        const statuses = taskLogLines(scratch).filter((line) => line.includes('solver working: www'));
        expect(statuses.length).toBeGreaterThan(0);
        expect(statuses.length).toBeLessThanOrEqual(sent);
        for (const line of statuses) expect(line.endsWith('w … [54.6 KiB more left out]')).toBe(true);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "writes a task's lines up to LOG_TASK_MAX_BYTES, then counts them, and says so when it reaches the bound and when the task ends",
      async () => {
        const { green, scratch } = await arena.startGreen({ SANDBOX: sandbox, LOG_TASK_MAX_BYTES: String(TASK_BOUND) });
        await flood(green);

        const log = taskLogLines(scratch);
        expect(log.join('\n').length).toBeLessThan(TASK_BOUND + 64 * 1024);
        expect(log.filter((line) => line.includes('[TaskLogging]')).map((line) => line.replace(/^.*\[TaskLogging\] /, ''))).toEqual([
          "this task's log reached its bound of 512.0 KiB (LOG_TASK_MAX_BYTES): its further lines are counted, not written",
          expect.stringMatching(/^\d+ lines \([\d.]+ [KM]iB\) of this task were left out of its log, past its bound of 512\.0 KiB \(LOG_TASK_MAX_BYTES\)$/),
        ]);
        // The task's end is past the bound too, and still not written: only the counts say it happened.
        expect(log.some((line) => line.includes('finished (solver-ended)'))).toBe(false);
      },
      TEST_TIMEOUT_MS,
    );

    /** One task of `green` whose solver floods it with status texts for FLOOD_MS, then ends; how many it sent. */
    async function flood(green: AgentProcess): Promise<number> {
      const { task, heard } = await arena.attack(green);
      const sent = await task.flood(STATUS, FLOOD_MS);
      // The flood is real: more than 8 MiB, had each text been written whole (a quiet machine takes 60 to
      // 100 MB of it in 10 s; the landed build wrote 954 MB).
      expect(sent * STATUS.length).toBeGreaterThan(8 * 1024 * 1024);
      task.end();
      expect(outcomeOf(await heard)).toMatchObject({ metrics: { status: 'no_submission' } });
      return sent;
    }
  });
}

function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

function taskLogLines(scratch: Scratch): string[] {
  return readFileSync(join(scratch.runDir, 'sample_1.log'), 'utf8').split('\n');
}

/** The task outcome in the `Result` artifact of a plain task request. */
function outcomeOf(events: PeerEvent[]): unknown {
  const artifact = events.find((event) => event.kind === 'artifact');
  return artifact?.kind === 'artifact' ? artifact.data[0] : undefined;
}
