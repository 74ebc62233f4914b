import { request } from 'node:http';
import { A2aClientFactory } from '../client/a2a-client.factory';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { parseSseBody, readJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';
import { SSE_HEARTBEAT } from './sse-writer';

function streamCall(text: string) {
  return {
    id: 'stream-1',
    jsonrpc: '2.0',
    method: 'message/stream',
    params: { message: { kind: 'message', messageId: `m-${text}`, role: 'user', parts: [{ kind: 'text', text }] } },
  };
}

describe('SSE streams of the JSON-RPC endpoint', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor, heartbeatMs: 50 });
  });
  afterAll(() => agent.close());

  it('send a heartbeat comment while the agent is silent, and end with the final state', async () => {
    const response = await fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(streamCall('pause 400')) });
    const { events, comments } = parseSseBody(await response.text());

    expect(comments.length).toBeGreaterThanOrEqual(3);
    expect(comments.every((comment) => `${comment}\n\n` === SSE_HEARTBEAT)).toBe(true);
    expect(events.at(-1)).toMatchObject({ id: 'stream-1', result: { kind: 'status-update', final: true, status: { state: 'completed' } } });
  });

  it('are read through by the client, heartbeats and all', async () => {
    const events = [];
    for await (const event of new A2aClientFactory().peer(agent.url).streamText('ctx', 'pause 200')) events.push(event);

    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed', text: 'echo: pause 200' });
  });

  it('answer a streaming call that fails up front in SSE too, with the JSON-RPC error', async () => {
    const call = {
      ...streamCall('x'),
      params: { message: { kind: 'message', messageId: 'm', role: 'user', parts: [{ kind: 'text', text: 'x' }], taskId: 'no-such-task' } },
    };
    const response = await fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });

    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(parseSseBody(await response.text()).events).toEqual([{ jsonrpc: '2.0', id: 'stream-1', error: expect.objectContaining({ code: -32001 }) }]);
  });

  it('stop writing when the client goes away, and the task runs on', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = request(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.once('error', (error) => (error.message.includes('socket hang up') ? resolve() : reject(error)));
      req.end(JSON.stringify(streamCall('pause 150')));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const call = agent.app.get(EchoExecutor).calls.at(-1);
    const got = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 2, jsonrpc: '2.0', method: 'tasks/get', params: { id: call?.taskId } }),
    });

    expect(call?.text).toBe('pause 150');
    expect((await readJson(got)).result.status).toMatchObject({ state: 'completed', message: { parts: [{ kind: 'text', text: 'echo: pause 150' }] } });
  });
});
