// Anthropic Messages with `stream: true`: the reply as server-sent events, in the order and shapes of the
// public SDK's types (`@anthropic-ai/sdk` resources/messages: RawMessageStreamEvent and its members) and of
// its reader (lib/MessageStream.js accumulates them; core/streaming.js skips `ping`, throws on `error`).
import type { ServerResponse } from 'node:http';
import type { FakeReply } from './fake-llm-script';
import type { WireReply } from './wire-formats';

/** One server-sent event: its `event:` name and its `data:` JSON, whose `type` repeats the name. */
interface AnthropicSseEvent {
  event: string;
  data: Record<string, unknown>;
}

// Text and tool input arrive in pieces, as the API sends them; small pieces make the reader join them.
const TEXT_PIECE = 16;
const JSON_PIECE = 24;

/** The stop reason of a reply: `tool_use` when it calls tools (StopReason in the SDK types). */
export function anthropicStopReason(reply: WireReply): string {
  if (reply.stop === 'max_tokens') return 'max_tokens';
  return reply.toolCalls?.length ? 'tool_use' : 'end_turn';
}

/** The tool_use id of a reply's n-th call; ids start with `toolu_` as the API's do (ToolUseBlock.id). */
export function anthropicToolUseId(reply: WireReply, index: number): string {
  return `toolu_${reply.id.replace(/[^A-Za-z0-9]/g, '')}${String(index).padStart(2, '0')}`;
}

/**
 * The events of one reply: message_start (the Message with no content yet and the prompt's usage),
 * a ping, then per block content_block_start / _delta (text_delta, input_json_delta) / _stop, then
 * message_delta (stop reason and usage) and message_stop.
 */
function anthropicStreamEvents(reply: WireReply): AnthropicSseEvent[] {
  const { usage } = reply;
  const prompt = { input_tokens: usage.input, cache_creation_input_tokens: usage.cacheWrite, cache_read_input_tokens: usage.cacheRead };
  const events: AnthropicSseEvent[] = [
    // message_start carries the prompt's counts and a first output count of 1, as the API's example streams do.
    event('message_start', {
      message: {
        id: reply.id,
        type: 'message',
        role: 'assistant',
        model: reply.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...prompt, output_tokens: 1, service_tier: 'standard' },
      },
    }),
    event('ping', {}),
  ];
  const blocks: { start: Record<string, unknown>; deltas: Record<string, unknown>[] }[] = [];
  if (reply.text !== '' || !reply.toolCalls?.length) {
    blocks.push({ start: { type: 'text', text: '' }, deltas: pieces(reply.text, TEXT_PIECE).map((text) => ({ type: 'text_delta', text })) });
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    // The block starts with an empty input; the whole input then comes as partial JSON (InputJSONDelta).
    const json = JSON.stringify(call.input);
    blocks.push({
      start: { type: 'tool_use', id: anthropicToolUseId(reply, index), name: call.name, input: {} },
      deltas: ['', ...pieces(json, JSON_PIECE)].map((partial_json) => ({ type: 'input_json_delta', partial_json })),
    });
  });
  blocks.forEach((block, index) => {
    events.push(event('content_block_start', { index, content_block: block.start }));
    for (const delta of block.deltas) events.push(event('content_block_delta', { index, delta }));
    events.push(event('content_block_stop', { index }));
  });
  // message_delta's usage holds the whole message's totals (MessageDeltaUsage; the SDK overwrites, never adds).
  events.push(
    event('message_delta', {
      delta: { stop_reason: anthropicStopReason(reply), stop_sequence: null },
      usage: { ...prompt, output_tokens: usage.output },
    }),
    event('message_stop', {}),
  );
  return events;
}

/** The events as the `text/event-stream` body: `event:` and `data:` lines, a blank line after each. */
export function renderSse(events: AnthropicSseEvent[]): string {
  return events.map(({ event: name, data }) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
}

/** Whether a Messages request asked for the stream (MessageCreateParamsStreaming: `stream: true`). */
export function wantsAnthropicStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/** Writes the reply as the API streams it: one event per write, then the end. */
export function sendAnthropicStream(response: ServerResponse, reply: WireReply): void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': `req_${reply.id}` });
  for (const one of anthropicStreamEvents(reply)) response.write(renderSse([one]));
  response.end();
}

/**
 * Requests that are not the agent's turn: they offer none of the tools named `toolPrefix`*. A coding CLI
 * sends such calls beside the agent's (a title or topic of the session, a quota probe); they get `text`
 * without taking a step of the script. Pass it as the server's `aside` option.
 */
export function asideWithoutTools(toolPrefix: string, text = 'ok'): (body: unknown) => FakeReply | undefined {
  return (body) => {
    const tools = typeof body === 'object' && body !== null ? (body as { tools?: unknown }).tools : undefined;
    const names = Array.isArray(tools) ? tools.map((tool) => (tool as { name?: unknown }).name) : [];
    if (names.some((name) => typeof name === 'string' && name.startsWith(toolPrefix))) return undefined;
    return { kind: 'reply', text, stop: 'end', delayMs: 0, usage: { input: 0, output: 0 } };
  };
}

function event(name: string, fields: Record<string, unknown>): AnthropicSseEvent {
  return { event: name, data: { type: name, ...fields } };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out.length ? out : [''];
}
