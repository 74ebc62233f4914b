import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fillerStream, postRaw, type RawAnswer } from '@arvo-rca/a2a-protocol/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';

const MiB = 1024 * 1024;
const HOSTILE_BYTES = 50 * MiB;
// Below one hostile body: growth past it would mean a body was held whole.
const HOLDS_NO_WHOLE_BODY_MIB = 42;

/** A process's resident memory now and at its peak, from the kernel's own counters. */
function memoryOf(agent: AgentProcess): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${agent.child.pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

async function timed(send: () => Promise<RawAnswer>): Promise<RawAnswer & { ms: number }> {
  const started = Date.now();
  const answer = await send();
  return { ...answer, ms: Date.now() - started };
}

describe('both agents as real processes, sent a 50 MB message', () => {
  const scratch = new Scratch();
  const agents: AgentProcess[] = [];

  beforeAll(async () => {
    agents.push(
      await startAgent('green-agent', { ...scratch.env(), PURPLE_AGENT_URL: 'http://127.0.0.1:9/' }),
      await startAgent('purple-agent', { ...scratch.env(), MODEL: 'baseline', GREEN_AGENT_URL: 'http://127.0.0.1:9/' }),
    );
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    scratch.remove();
  });

  it.each(['green-agent', 'purple-agent'])(
    '%s refuses it at once with a JSON-RPC error (HTTP 200, so every client reads it), whether sized or chunked, and its memory stays where it was',
    async (name) => {
      const agent = agents.find((each) => each.name === name) as AgentProcess;
      const before = memoryOf(agent);

      const sized = await timed(() => postRaw(agent.url, fillerStream(HOSTILE_BYTES), { 'content-length': String(HOSTILE_BYTES) }));
      const chunked = await timed(() => postRaw(agent.url, fillerStream(HOSTILE_BYTES)));

      for (const answer of [sized, chunked]) {
        expect(answer).toMatchObject({
          status: 200,
          body: { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('A2A_MAX_BODY_BYTES') } },
        });
        expect(answer.ms).toBeLessThan(2_000);
      }
      // The default limit (8 MiB) is read at most once a request; the 50 MiB never are. Two requests' 8 MiB
      // and their socket buffers came to 11 to 17 MiB alone and to 35 MiB once on a busy machine, where the
      // collector runs late; either body held whole would pass 50.
      const after = memoryOf(agent);
      expect((after.peak - Math.max(before.peak, before.rss)) / MiB).toBeLessThan(HOLDS_NO_WHOLE_BODY_MIB);
      expect((after.rss - before.rss) / MiB).toBeLessThan(HOLDS_NO_WHOLE_BODY_MIB);
      // And the agent goes on serving JSON-RPC calls.
      const call = { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: randomUUID() } };
      expect(await postRaw(agent.url, Buffer.from(JSON.stringify(call)))).toMatchObject({ status: 200, body: { id: 2, error: { code: -32001 } } });
    },
  );
});
