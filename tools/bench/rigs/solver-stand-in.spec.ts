import { randomUUID } from 'node:crypto';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { SolverStandIn, type SolverSession } from './solver-stand-in';

describe('the solver stand-in', () => {
  let solver: SolverStandIn;
  let green: SolverStandIn;
  const clients = new A2aClientFactory();

  beforeEach(async () => {
    solver = await SolverStandIn.start();
    // A second stand-in plays the green agent: it answers whatever the solver sends it.
    green = await SolverStandIn.start();
    solver.greenUrl = green.url;
  });

  afterEach(async () => {
    await solver.close();
    await green.close();
  });

  async function handOver(contextId: string, description: string): Promise<PeerEvent[]> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(solver.url).streamText(contextId, description, { deadlineMs: 10_000 })) events.push(event);
    return events;
  }

  it('gives a task handed over by A2A to its handler, whose messages reach the green agent on the task context', async () => {
    const seen: SolverSession[] = [];
    const heard: SolverSession[] = [];
    green.handler = async (session) => void heard.push(session);
    let reply = '';
    solver.handler = async (session) => {
      seen.push(session);
      reply = await session.send('execute: true');
    };
    const contextId = randomUUID();

    const events = await handOver(contextId, 'Task ID: sample:1');

    expect(seen.map((session) => [session.contextId, session.description])).toEqual([[contextId, 'Task ID: sample:1']]);
    expect(heard.map((session) => [session.contextId, session.description])).toEqual([[contextId, 'execute: true']]);
    expect(reply).toBe('done');
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed', text: 'done' });
  });

  it('ends the task as failed, and keeps the failure, when its handler throws', async () => {
    solver.handler = async () => {
      throw new Error('scenario broke');
    };

    const events = await handOver(randomUUID(), 'Task ID: sample:1');

    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'failed', text: 'scenario broke' });
    expect(solver.failures.map((error) => error.message)).toEqual(['scenario broke']);
  });
});
