import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import { completedTask, filler, HostilePeer } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { describeWithBubblewrap } from '@arvo-rca/sandbox/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { collect } from './support/stand-ins/hostile-arena';

// As measured against the landed build (issue 34): a solver answering the task with a 1.5 GB body that is
// no event stream took the green agent from 0.2 to 3.4 GB and froze it for 5 to 9 s.
const HUGE = 1_500_000_000;
const MiB = 1024 * 1024;
const RSS_GROWTH_LIMIT_MB = 64;
const JSON_TYPE = { 'content-type': 'application/json' };
// What a socket and its buffers may hold past the bound when the green agent stops reading.
const SOCKET_SLACK = 32 * MiB;
const TEST_TIMEOUT_MS = 300_000;

for (const [describeFor, sandbox] of [
  [describeWithDocker, 'docker'],
  [describeWithBubblewrap, 'local'],
] as const) {
  describeFor(`a solver answering with a 1.5 GB reply body, on the ${sandbox} sandbox`, () => {
    const scratch = new Scratch();
    const solver = new HostilePeer({
      huge: () => ({ headers: JSON_TYPE, piece: filler, limitBytes: HUGE, end: true }),
      // A solver that answers at once: the green agent's first task warms it, so the reply alone is measured.
      brief: (id) => ({ headers: JSON_TYPE, piece: () => completedTask(id, 'nothing to say'), limitBytes: 1, end: true }),
    });
    let green: AgentProcess;

    beforeAll(async () => {
      await solver.start();
      green = await startAgent('green-agent', { ...scratch.env(), SANDBOX: sandbox });
    }, TEST_TIMEOUT_MS);

    afterAll(async () => {
      await green?.stop('SIGKILL');
      await solver.stop();
      scratch.remove();
    }, TEST_TIMEOUT_MS);

    it(
      "fails the solver's side once the body passes A2A_MAX_BODY_BYTES, reads no more of it, and leaves the green agent's memory within 64 MiB of where it was",
      async () => {
        expect(await taskWith(green, solver.url('brief'), 'sample:2')).toMatchObject({ status: 'no_submission' });
        const before = rssOfMB(green);

        expect(await taskWith(green, solver.url('huge'), 'sample:1')).toMatchObject({ status: 'no_submission' });
        expect(rssOfMB(green) - before).toBeLessThan(RSS_GROWTH_LIMIT_MB);
        expect(solver.pourings.get('huge')?.bytes).toBeLessThan(8 * MiB + SOCKET_SLACK);
        const taskLog = readFileSync(join(scratch.runDir, 'sample_1.log'), 'utf8').split('\n');
        expect(taskLog.filter((line) => line.includes('solver failed:'))).toEqual([
          expect.stringMatching(/solver failed: .*passed 8\.0 MiB \(A2A_MAX_BODY_BYTES/),
        ]);
      },
      TEST_TIMEOUT_MS,
    );
  });
}

/** One task run by `green` with the solver at `solverUrl`; its outcome, as the Result's task entry says. */
async function taskWith(green: AgentProcess, solverUrl: string, task: string): Promise<unknown> {
  const request = { participants: { purple_agent: solverUrl }, config: { task_ids: [task] } };
  const events = await collect(new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: TEST_TIMEOUT_MS }));
  const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result');
  const result = artifact?.kind === 'artifact' ? (artifact.data[0] as { task_metrics?: Record<string, unknown> }) : undefined;
  return result?.task_metrics?.[task];
}

/** An agent's resident memory, from the kernel. */
function rssOfMB(agent: AgentProcess): number {
  const status = readFileSync(`/proc/${agent.child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
}
