import { FakeLlmServer } from './fake-llm-server';
import { connectionReset, httpError, reply, toolCall } from './fake-llm-script';

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

describe('FakeLlmServer', () => {
  let server: FakeLlmServer;
  beforeEach(async () => {
    server = await FakeLlmServer.start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers OpenAI chat completions with the scripted text, finish reason and usage with cached tokens', async () => {
    server.script(reply('THOUGHT: x', { usage: { input: 10, output: 3, cacheRead: 90 } }), reply('cut', { stop: 'max_tokens' }));

    const first = await (await post(`${server.openAiBaseUrl}/chat/completions`, { model: 'gpt-test', messages: [] })).json();
    const second = await (await post(`${server.openAiBaseUrl}/chat/completions`, { model: 'gpt-test', messages: [] })).json();

    expect(first).toMatchObject({
      model: 'gpt-test',
      choices: [{ message: { role: 'assistant', content: 'THOUGHT: x' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 100, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 90 } },
    });
    expect(second).toMatchObject({ choices: [{ finish_reason: 'length' }] });
  });

  it('answers Anthropic messages with content blocks, stop reason and cache read and write tokens', async () => {
    server.script(reply('cut off', { stop: 'max_tokens', usage: { input: 5, output: 7, cacheRead: 100, cacheWrite: 20 } }));

    const message = await (await post(`${server.anthropicBaseUrl}/v1/messages`, { model: 'claude-test', messages: [] })).json();

    expect(message).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'cut off' }], stop_reason: 'max_tokens' });
    expect(message).toHaveProperty('usage', { input_tokens: 5, output_tokens: 7, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 });
  });

  it('injects errors in the provider shape, with retry-after when scripted', async () => {
    server.script(httpError(429, { retryAfter: 3 }), httpError(500));

    const limited = await post(`${server.anthropicBaseUrl}/v1/messages`, {});
    const failed = await post(`${server.openAiBaseUrl}/chat/completions`, {});

    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ error: { message: expect.stringContaining('500') } });
  });

  it('delays slow replies by the scripted time', async () => {
    server.script(reply('late', { delayMs: 300 }));
    const started = Date.now();

    const response = await post(`${server.openAiBaseUrl}/chat/completions`, {});

    expect(response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });

  it('drops the connection for a scripted reset', async () => {
    server.script(connectionReset());

    await expect(post(`${server.openAiBaseUrl}/chat/completions`, {})).rejects.toThrow();
  });

  it('answers 400 naming the problem once the script is used up', async () => {
    const response = await post(`${server.openAiBaseUrl}/chat/completions`, {});

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: expect.stringContaining('no reply left') } });
  });

  it('answers each conversation from its own script, chosen by the marker its request carries, whatever the order', async () => {
    server.script(reply('shared 1'), reply('shared 2'));
    server.scriptFor('task-a7', reply('a 1'), reply('a 2')).scriptFor('task-b3', toolCall('mcp_task_shell', { command: 'ls' }));
    const turn = async (marker: string | undefined, api: 'anthropic' | 'gemini' = 'anthropic'): Promise<unknown> => {
      const text = marker ? `Root-cause analysis task ${marker}.` : 'a request of no conversation';
      if (api === 'gemini') {
        const url = `${server.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`;
        const tools = [{ functionDeclarations: [{ name: 'mcp_task_shell' }] }];
        return (await post(url, { contents: [{ role: 'user', parts: [{ text }] }], tools })).json();
      }
      const response = await post(`${server.anthropicBaseUrl}/v1/messages`, { model: 'm', messages: [{ role: 'user', content: text }] });
      return { status: response.status, body: await response.json() };
    };

    const b = await turn('task-b3', 'gemini');
    const a1 = await turn('task-a7');
    expect(server.pendingFor('task-a7')).toBe(1);
    const shared = await turn(undefined);
    const a2 = await turn('task-a7');
    const aAgain = await turn('task-a7');

    expect(b).toMatchObject({ candidates: [{ content: { parts: [{ functionCall: { name: 'mcp_task_shell', args: { command: 'ls' } } }] } }] });
    expect(a1).toMatchObject({ status: 200, body: { content: [{ type: 'text', text: 'a 1' }] } });
    expect(shared).toMatchObject({ status: 200, body: { content: [{ type: 'text', text: 'shared 1' }] } });
    expect(a2).toMatchObject({ status: 200, body: { content: [{ type: 'text', text: 'a 2' }] } });
    // A conversation that has used up its script is told so; it never takes a shared step.
    expect(aAgain).toMatchObject({ status: 400, body: { error: { message: expect.stringContaining('"task-a7" has no reply left') } } });
    expect(server.pending).toBe(1);
  });

  it('records every request with its headers and parsed body, refused ones included', async () => {
    server.script(reply('ok'));

    await post(`${server.anthropicBaseUrl}/v1/messages`, { model: 'm', system: 'sys' }, { 'x-api-key': 'key-1' });
    await post(`${server.url}/v2/nothing`, { a: 1 });

    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]).toMatchObject({ api: 'anthropic', path: '/v1/messages', body: { model: 'm', system: 'sys' } });
    expect(server.requests[0].headers['x-api-key']).toBe('key-1');
    expect(server.requests[1]).toMatchObject({ api: 'unknown', path: '/v2/nothing' });
  });
});

describe('FakeLlmServer with an API key', () => {
  it('refuses a wrong key with the provider 401 and accepts the right one, without consuming the script', async () => {
    const server = await FakeLlmServer.start({ apiKey: 'right' });
    try {
      server.script(reply('ok'));

      const refused = await post(`${server.anthropicBaseUrl}/v1/messages`, {}, { 'x-api-key': 'wrong' });
      const accepted = await post(`${server.openAiBaseUrl}/chat/completions`, {}, { authorization: 'Bearer right' });

      expect(refused.status).toBe(401);
      expect(await refused.json()).toHaveProperty('error', { type: 'authentication_error', message: 'invalid x-api-key' });
      expect(accepted.status).toBe(200);
      expect(server.pending).toBe(0);
    } finally {
      await server.close();
    }
  });
});
