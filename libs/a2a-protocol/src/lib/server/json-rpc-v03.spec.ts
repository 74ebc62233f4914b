import { randomUUID } from 'node:crypto';
import { AGENT_CARD_PATH } from '../agent-card';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { parseSseBody, readJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

// What a Python AgentBeats client (a2a-sdk 0.3 over httpx) puts on the wire: no A2A-Version header.
const PYTHON_HEADERS = { 'content-type': 'application/json', accept: '*/*', 'user-agent': 'python-httpx/0.28.1', 'accept-encoding': 'gzip, deflate' };

function pythonBody(method: string, text: string, contextId: string) {
  return {
    id: randomUUID(),
    jsonrpc: '2.0',
    method,
    params: {
      configuration: { acceptedOutputModes: [], blocking: true },
      message: { contextId, kind: 'message', messageId: randomUUID().replace(/-/g, ''), parts: [{ kind: 'text', text }], role: 'user' },
    },
  };
}

describe('the JSON-RPC endpoint, spoken to in A2A v0.3 as Python clients do', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor });
  });
  afterAll(() => agent.close());

  it('runs message/send sent without a version header and answers with a v0.3 task', async () => {
    const body = pythonBody('message/send', 'Task ID: arvo:14368', 'ctx-send');
    const response = await fetch(agent.url, { method: 'POST', headers: PYTHON_HEADERS, body: JSON.stringify(body) });
    const reply = await readJson(response);

    expect(response.status).toBe(200);
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: body.id, result: { kind: 'task', contextId: 'ctx-send', status: { state: 'completed' } } });
    expect(reply.result.status.message.parts).toEqual([expect.objectContaining({ kind: 'text', text: 'echo: Task ID: arvo:14368' })]);
    expect(agent.app.get(EchoExecutor).calls.at(-1)).toEqual({
      text: 'Task ID: arvo:14368',
      contextId: 'ctx-send',
      taskId: reply.result.id,
      requestedVersion: '0.3',
    });
  });

  it('answers a message with a v0.3 message when the agent replies without a task', async () => {
    const body = pythonBody('message/send', 'message: hi', 'ctx-message');
    const reply = await readJson(await fetch(agent.url, { method: 'POST', headers: PYTHON_HEADERS, body: JSON.stringify(body) }));

    expect(reply.result).toMatchObject({ kind: 'message', role: 'agent', contextId: 'ctx-message', parts: [{ kind: 'text', text: 'echo: hi' }] });
  });

  it('streams message/stream as SSE: the task, its working update, and a final completed update', async () => {
    const body = pythonBody('message/stream', 'look around', 'ctx-stream');
    const response = await fetch(agent.url, { method: 'POST', headers: { ...PYTHON_HEADERS, accept: 'text/event-stream' }, body: JSON.stringify(body) });
    const { events } = parseSseBody(await response.text());
    const results = events.map((event) => event as { id: unknown; result: { kind: string; status?: { state: string }; final?: boolean } });

    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(results.every((event) => event.id === body.id)).toBe(true);
    expect(results.map(({ result }) => [result.kind, result.status?.state, result.final])).toEqual([
      ['task', 'submitted', undefined],
      ['status-update', 'working', false],
      ['status-update', 'completed', true],
    ]);
  });

  it('finds the task again with tasks/get', async () => {
    const sent = await readJson(
      await fetch(agent.url, { method: 'POST', headers: PYTHON_HEADERS, body: JSON.stringify(pythonBody('message/send', 'remember me', 'ctx-get')) }),
    );
    const got = await readJson(
      await fetch(agent.url, {
        method: 'POST',
        headers: PYTHON_HEADERS,
        body: JSON.stringify({ id: 7, jsonrpc: '2.0', method: 'tasks/get', params: { id: sent.result.id } }),
      }),
    );

    expect(got).toMatchObject({ id: 7, result: { kind: 'task', id: sent.result.id, contextId: 'ctx-get', status: { state: 'completed' } } });
  });

  it('answers an unknown method with a JSON-RPC error, not an HTTP failure', async () => {
    const response = await fetch(agent.url, {
      method: 'POST',
      headers: PYTHON_HEADERS,
      body: JSON.stringify({ id: 'x', jsonrpc: '2.0', method: 'tasks/teleport', params: {} }),
    });

    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ id: 'x', error: { code: -32601 } });
  });

  it('serves the card in the v0.3 shape when no version header is sent', async () => {
    const response = await fetch(new URL(AGENT_CARD_PATH, agent.url));
    const card = await readJson(response);

    expect(response.headers.get('vary')).toMatch(/A2A-Version/i);
    expect(card).toMatchObject({
      name: 'echo agent',
      url: agent.url,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: { streaming: true },
    });
    expect(card.skills).toEqual([{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'], examples: ['hello'] }]);
  });

  it('serves the card in the v1.0 shape when asked with A2A-Version: 1.0', async () => {
    const card = await readJson(await fetch(new URL(AGENT_CARD_PATH, agent.url), { headers: { 'A2A-Version': '1.0' } }));

    expect(card.protocolVersion).toBeUndefined();
    expect(card.supportedInterfaces).toEqual([
      { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: agent.url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
    ]);
  });
});
