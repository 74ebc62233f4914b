// The Responses API stand-in driven by the real `openai` client: streamed and whole responses, text,
// function calls (namespaced ones too), usage with cached tokens, and requests that are not an agent's turn.
import OpenAI from 'openai';
import { FakeLlmServer } from './fake-llm-server';
import { reply, toolCall } from './fake-llm-script';
import { AUXILIARY_RESPONSES_TEXT } from './openai-responses';

const TOOLS: OpenAI.Responses.Tool[] = [
  { type: 'function', name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: false },
  {
    type: 'namespace',
    name: 'mcp__task',
    description: 'task tools',
    tools: [{ type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'string' } } } }],
  },
];

describe('FakeLlmServer: OpenAI Responses API', () => {
  let server: FakeLlmServer;
  let client: OpenAI;
  beforeEach(async () => {
    server = await FakeLlmServer.start({ apiKey: 'sk-test' });
    client = new OpenAI({ apiKey: 'sk-test', baseURL: server.openAiBaseUrl, maxRetries: 0 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams text and function calls as events the SDK assembles, with usage and cached tokens', async () => {
    server.script(
      reply('Looking.', {
        toolCalls: [
          { name: 'lookup', input: { q: 'x' } },
          { name: 'mcp__task__shell', input: { command: 'ls /src' } },
        ],
        usage: { input: 10, output: 7, cacheRead: 90, cacheWrite: 5 },
      }),
    );

    const stream = client.responses.stream({ model: 'gpt-test', input: 'hi', tools: TOOLS });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const final = await stream.finalResponse();

    expect(text).toBe('Looking.');
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((type) => type === 'response.function_call_arguments.delta').length).toBeGreaterThan(0);
    expect(final.output_text).toBe('Looking.');
    expect(final.output.slice(1)).toMatchObject([
      { type: 'function_call', name: 'lookup', arguments: '{"q":"x"}' },
      { type: 'function_call', namespace: 'mcp__task', name: 'shell', arguments: '{"command":"ls /src"}' },
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 105, output_tokens: 7, input_tokens_details: { cached_tokens: 90, cache_write_tokens: 5 } });
  });

  it('answers without streaming with one Response, and a cut reply as incomplete', async () => {
    server.script(toolCall('mcp__task__shell', { command: 'id' }), reply('cut', { stop: 'max_tokens' }));

    const called = await client.responses.create({ model: 'gpt-test', input: 'hi', tools: TOOLS });
    const cut = await client.responses.create({ model: 'gpt-test', input: 'hi', tools: TOOLS });

    expect(called).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'function_call', namespace: 'mcp__task', name: 'shell' }] });
    expect(cut).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output_text: 'cut' });
  });

  it("answers a request that offers no tools (not an agent's turn) with a fixed text, leaving the script alone", async () => {
    server.script(reply('the turn'));

    const aside = await client.responses.create({ model: 'gpt-test', input: 'title this' });

    expect(aside.output_text).toBe(AUXILIARY_RESPONSES_TEXT);
    expect(server.pending).toBe(1);
  });

  it('refuses a wrong key with the OpenAI error shape', async () => {
    const wrong = new OpenAI({ apiKey: 'sk-wrong', baseURL: server.openAiBaseUrl, maxRetries: 0 });
    await expect(wrong.responses.create({ model: 'gpt-test', input: 'hi', tools: TOOLS })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});
