import { AGENT_CARD_PATH } from './agent-card';
import { readJson } from './testing/http.testing';
import { startTestAgent, type TestAgent } from './testing/test-agent.testing';

describe('the agent card over HTTP', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent();
  });
  afterAll(() => agent.close());

  const card = (headers: Record<string, string> = {}, query = '') => fetch(new URL(`${AGENT_CARD_PATH}${query}`, agent.url), { headers });

  it('is served with Cache-Control and an ETag, one per shape', async () => {
    const legacy = await card();
    const v1 = await card({ 'A2A-Version': '1.0' });

    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('cache-control')).toBe('public, max-age=300');
    expect(legacy.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(v1.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(v1.headers.get('etag')).not.toBe(legacy.headers.get('etag'));
    expect(legacy.headers.get('vary')).toContain('A2A-Version');
    expect(legacy.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 304 with no body to a caller that names its ETag in If-None-Match, weakly or among others', async () => {
    const etag = (await card()).headers.get('etag') ?? '';

    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await card({ 'If-None-Match': ifNoneMatch });
      expect([again.status, await again.text(), again.headers.get('etag')]).toEqual([304, '', etag]);
    }
    const stale = await card({ 'If-None-Match': '"other"' });
    expect(stale.status).toBe(200);
    expect((await readJson(stale))['name']).toBe('echo agent');
  });

  it('declares text parts in and out unless the agent says more', async () => {
    expect(await readJson(await card())).toMatchObject({ defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'] });
  });
});
