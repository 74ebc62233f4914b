import { AGENT_CARD_PATH } from '../agent-card';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { readJson, sendMessageBody } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

// The A2A specification's service parameter A2A-Version travels as an HTTP header or as a query parameter;
// none means 0.3; a version the agent does not declare is VersionNotSupportedError (-32009).
describe('the A2A version a caller asks for', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor });
  });
  afterAll(() => agent.close());

  const lastVersion = (): string | undefined => agent.app.get(EchoExecutor).calls.at(-1)?.requestedVersion;
  const post = (path: string, headers: Record<string, string> = {}) =>
    fetch(new URL(path, agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(sendMessageBody('hi')),
    });

  it('is read from the A2A-Version query parameter when no header names it', async () => {
    // A2A 1.0 names the call SendMessage, and its parts carry no kind.
    const v1 = { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } } };
    const response = await fetch(new URL('/?A2A-Version=1.0', agent.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(v1),
    });

    expect(await readJson(response)).toMatchObject({ id: 1, result: { task: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    expect(lastVersion()).toBe('1.0');
    await post('/');
    expect(lastVersion()).toBe('0.3');
  });

  it('is read from the header first, when both name one', async () => {
    await post('/?A2A-Version=1.0', { 'A2A-Version': '0.3' });

    expect(lastVersion()).toBe('0.3');
  });

  it.each([
    ['header', '/', { 'A2A-Version': '2.0' }],
    ['query parameter', '/?A2A-Version=2.0', {}],
  ])('is refused with VersionNotSupportedError and HTTP 200 when the %s names a version the card does not declare', async (_where, path, headers) => {
    const calls = agent.app.get(EchoExecutor).calls.length;

    const response = await post(path, headers);

    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ id: 1, error: { code: -32009, message: expect.stringContaining("'2.0' is not supported") } });
    expect(agent.app.get(EchoExecutor).calls).toHaveLength(calls);
  });

  it('picks the shape of the agent card by the query parameter too', async () => {
    const legacy = await readJson(await fetch(new URL(AGENT_CARD_PATH, agent.url)));
    const v1 = await readJson(await fetch(new URL(`${AGENT_CARD_PATH}?A2A-Version=1.0`, agent.url)));

    expect(legacy).toHaveProperty('protocolVersion', '0.3');
    expect(v1).not.toHaveProperty('protocolVersion');
    expect(v1).toHaveProperty('supportedInterfaces');
  });
});
