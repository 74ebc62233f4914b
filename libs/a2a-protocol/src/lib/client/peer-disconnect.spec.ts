import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD_PATH, buildAgentCard } from '../agent-card';
import { A2aClientFactory } from './a2a-client.factory';
import type { PeerEvent } from './peer-events';

// A peer that starts its stream, reports the task, and then dies (its process crashed).
describe('A2aPeer when the peer dies in the middle of a stream', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.method === 'GET' && request.url === AGENT_CARD_PATH) {
        const card = buildAgentCard({ name: 'dying', description: 'd', version: '0', url, skills: [] });
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(AgentCard.toJSON(card)));
      }
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const task = { task: { id: 't1', contextId: 'ctx', status: { state: 'TASK_STATE_WORKING' } } };
        response.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: task })}\n\n`, () => setTimeout(() => response.socket?.destroy(), 50));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('yields what arrived, then fails saying the connection dropped', async () => {
    const seen: PeerEvent[] = [];
    const consume = async () => {
      for await (const event of new A2aClientFactory().peer(url).streamText('ctx', 'go', { deadlineMs: 5_000 })) seen.push(event);
    };

    await expect(consume()).rejects.toMatchObject({ code: 'PEER_DISCONNECTED', message: expect.stringContaining(`A2A peer ${url} dropped the connection`) });
    expect(seen).toEqual([{ kind: 'task', taskId: 't1', contextId: 'ctx', state: 'working', text: '', data: [] }]);
  });
});
