import { EchoExecutor } from '../testing/echo-executor.testing';
import { readJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

// JSON-RPC 2.0 answers a method the server does not have with -32601, whatever its params: the SDK's
// handlers check params first, and answered an unknown method sent without params with -32602.

const V03 = { 'content-type': 'application/json' };
const V1 = { 'content-type': 'application/json', 'a2a-version': '1.0' };

describe('a JSON-RPC call to a method the agent does not have', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor });
  });
  afterAll(() => agent.close());

  const call = async (headers: Record<string, string>, body: Record<string, unknown>): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(agent.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 'x', ...body }) });
    return { status: response.status, body: await readJson(response) };
  };

  it.each([
    ['v0.3', V03, 'tasks/teleport'],
    ['v1.0', V1, 'Teleport'],
    ['v1.0, a v0.3 name', V1, 'message/send'],
  ])('in %s gets -32601 (method not found) without params, with params and with params that are no object', async (_, headers, method) => {
    for (const params of [{}, { params: {} }, { params: [1, 2] }]) {
      expect(await call(headers, { method, ...params })).toMatchObject({ status: 200, body: { id: 'x', error: { code: -32601 } } });
    }
  });

  it('leaves the other checks as they were: a known method without params is -32602, a call without a method -32600', async () => {
    expect(await call(V03, { method: 'tasks/get' })).toMatchObject({ body: { id: 'x', error: { code: -32602 } } });
    expect(await call(V1, { method: 'GetTask' })).toMatchObject({ body: { id: 'x', error: { code: -32602 } } });
    expect(await call(V03, { method: 7 })).toMatchObject({ body: { error: { code: -32600 } } });
    expect(await call(V03, { jsonrpc: '1.0', method: 'tasks/teleport' })).toMatchObject({ body: { error: { code: -32600 } } });
  });
});
