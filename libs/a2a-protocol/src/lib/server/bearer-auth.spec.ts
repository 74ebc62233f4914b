import { AGENT_CARD_PATH } from '../agent-card';
import { A2aClientFactory } from '../client/a2a-client.factory';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { readJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

const CALL = {
  id: 1,
  jsonrpc: '2.0',
  method: 'message/send',
  params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
};

describe('an agent deployed with A2A_TOKEN', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor, token: 's3cret' });
  });
  afterAll(() => agent.close());

  const post = (headers: Record<string, string>) =>
    fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(CALL) });

  it('refuses JSON-RPC calls without the token with 401, naming the scheme', async () => {
    const response = await post({});

    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect((await readJson(response)).message).toContain('Authorization: Bearer');
  });

  it('refuses a wrong token', async () => {
    expect((await post({ authorization: 'Bearer guess' })).status).toBe(401);
    expect((await post({ authorization: 's3cret' })).status).toBe(401);
  });

  it('runs calls that carry the token', async () => {
    const response = await post({ authorization: 'Bearer s3cret' });

    expect(response.status).toBe(200);
    expect((await readJson(response)).result.status.state).toBe('completed');
  });

  it('keeps the card public and declares the scheme in both card shapes', async () => {
    const legacy = await readJson(await fetch(new URL(AGENT_CARD_PATH, agent.url)));
    const v1 = await readJson(await fetch(new URL(AGENT_CARD_PATH, agent.url), { headers: { 'A2A-Version': '1.0' } }));

    expect(legacy.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'Bearer', description: expect.any(String) } });
    expect(legacy.security).toEqual([{ bearer: [] }]);
    expect(v1.securitySchemes.bearer.httpAuthSecurityScheme).toMatchObject({ scheme: 'Bearer' });
    expect(v1.securityRequirements).toEqual([{ schemes: { bearer: {} } }]);
  });

  it('lets a client with the same token in, and tells a client without it or with another one why not', async () => {
    await expect(new A2aClientFactory({ token: 's3cret' }).peer(agent.url).sendText('ctx', 'hello')).resolves.toBe('echo: hello');
    await expect(new A2aClientFactory().peer(agent.url).sendText('ctx', 'hello')).rejects.toMatchObject({
      code: 'PEER_UNAUTHORIZED',
      message: expect.stringContaining('requires a bearer token (set A2A_TOKEN)'),
    });
    await expect(new A2aClientFactory({ token: 'other' }).peer(agent.url).streamText('ctx', 'hello').next()).rejects.toMatchObject({
      code: 'PEER_UNAUTHORIZED',
      message: expect.stringContaining('refused the bearer token'),
    });
  });
});

describe('an agent deployed without A2A_TOKEN', () => {
  it('takes calls without a token and declares no scheme', async () => {
    const agent = await startTestAgent({ executor: EchoExecutor });
    try {
      const response = await fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CALL) });
      const card = await readJson(await fetch(new URL(AGENT_CARD_PATH, agent.url)));

      expect(response.status).toBe(200);
      expect(card.securitySchemes).toBeUndefined();
    } finally {
      await agent.close();
    }
  });
});
