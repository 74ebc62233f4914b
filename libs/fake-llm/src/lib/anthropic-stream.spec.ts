import Anthropic from '@anthropic-ai/sdk';
import { asideWithoutTools } from './anthropic-stream';
import { FakeLlmServer } from './fake-llm-server';
import { reply, toolCall } from './fake-llm-script';

const TOOLS = [{ name: 'mcp__task__shell', description: 'run', input_schema: { type: 'object' as const, properties: { command: { type: 'string' } } } }];

describe('FakeLlmServer streaming Anthropic Messages (the real SDK reading it)', () => {
  let server: FakeLlmServer;
  let client: Anthropic;
  beforeEach(async () => {
    server = await FakeLlmServer.start();
    client = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams text then tool_use blocks whose pieced input the SDK joins, stopping for the tools with the scripted usage', async () => {
    const command = 'grep -rn "memcpy(" /src/lib | head -50 && echo "done with it"';
    server.script(
      reply('Looking at the parser first.', {
        toolCalls: [
          { name: 'mcp__task__shell', input: { command } },
          { name: 'mcp__task__submit', input: {} },
        ],
        usage: { input: 12, output: 34, cacheRead: 560, cacheWrite: 78 },
      }),
    );

    const stream = client.messages.stream({ model: 'claude-test', max_tokens: 100, tools: TOOLS, messages: [{ role: 'user', content: 'go' }] });
    const texts: string[] = [];
    stream.on('text', (delta) => texts.push(delta));
    const message = await stream.finalMessage();

    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe('Looking at the parser first.');
    expect(message.content).toEqual([
      { type: 'text', text: 'Looking at the parser first.' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'mcp__task__shell', input: { command } },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'mcp__task__submit', input: {} },
    ]);
    expect(message).toMatchObject({ id: 'fake-1', model: 'claude-test', role: 'assistant', stop_reason: 'tool_use' });
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 34, cache_read_input_tokens: 560, cache_creation_input_tokens: 78 });
    expect(server.requests[0].body).toMatchObject({ stream: true });
  });

  it('sends the events in the API order, a ping after message_start, and ends a text-only turn with end_turn', async () => {
    server.script(reply('All done.', { usage: { input: 3, output: 4 } }));

    const stream = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const types: string[] = [];
    let final: unknown;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'message_delta') final = event;
    }

    expect(types[0]).toBe('message_start');
    expect(types.slice(1, 2)).toEqual(['content_block_start']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(final).toMatchObject({ delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4, input_tokens: 3 } });
  });

  it('renders a tool call without text as tool_use only, streamed or not', async () => {
    server.script(toolCall('mcp__task__shell', { command: 'ls' }), toolCall('mcp__task__shell', { command: 'pwd' }));

    const streamed = await client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();
    const whole = await client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });

    expect(streamed.content).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'mcp__task__shell', input: { command: 'ls' } }]);
    expect(whole.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'mcp__task__shell', input: { command: 'pwd' } }]);
    expect([streamed.stop_reason, whole.stop_reason]).toEqual(['tool_use', 'tool_use']);
  });

  it('keeps max_tokens as the stop reason of a cut stream', async () => {
    server.script(reply('cut', { stop: 'max_tokens' }));

    const message = await client.messages.stream({ model: 'm', max_tokens: 1, messages: [{ role: 'user', content: 'hi' }] }).finalMessage();

    expect(message.stop_reason).toBe('max_tokens');
  });
});

describe('FakeLlmServer aside answers', () => {
  it('answers requests offering none of the agent tools with fixed text and leaves the script for the agent turns', async () => {
    const server = await FakeLlmServer.start({ aside: asideWithoutTools('mcp__task__', 'aside') });
    try {
      const client = new Anthropic({ apiKey: 'k', baseURL: server.anthropicBaseUrl, maxRetries: 0 });
      server.script(reply('the turn'));

      const title = await client.messages.stream({ model: 'small', max_tokens: 10, messages: [{ role: 'user', content: 'title?' }] }).finalMessage();
      const turn = await client.messages.create({ model: 'm', max_tokens: 10, tools: TOOLS, messages: [{ role: 'user', content: 'go' }] });

      expect(title.content).toEqual([{ type: 'text', text: 'aside' }]);
      expect(turn.content).toEqual([{ type: 'text', text: 'the turn' }]);
      expect(server.pending).toBe(0);
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
