// OpenAI's Responses API (`POST /v1/responses`), streaming and not, rendered from the shapes of the public SDK
// (`openai` package, src/resources/responses/responses.ts: Response, ResponseStreamEvent, ResponseUsage,
// ResponseOutputMessage, ResponseFunctionToolCall, NamespaceTool) so that the real SDK and the Codex CLI
// read text, tool calls and usage exactly as they would from the provider.
import type { ServerResponse } from 'node:http';
import type { FakeToolCall, FakeUsage } from './fake-llm-script';

export interface ResponsesReply {
  id: string;
  model: string;
  text: string;
  toolCalls: FakeToolCall[];
  usage: FakeUsage;
  stop: 'end' | 'max_tokens';
}

interface RequestTool {
  type?: unknown;
  name?: unknown;
  tools?: unknown;
}

interface ResponsesRequest {
  stream?: unknown;
  tools?: unknown;
  tool_choice?: unknown;
  parallel_tool_calls?: unknown;
  instructions?: unknown;
  previous_response_id?: unknown;
}

/**
 * A request that is not an agent's turn: it offers no tools at all (a title, a summary, a memory or a
 * compaction prompt). It gets a short fixed text and leaves the script alone. The agent's own turns always
 * carry its tools (Codex sends `tools` with every turn of `codex exec`, even when the only ones are MCP's).
 */
export function isAuxiliaryResponsesRequest(body: unknown): boolean {
  const tools = asRequest(body).tools;
  return !Array.isArray(tools) || tools.length === 0;
}

export const AUXILIARY_RESPONSES_TEXT = 'fake-llm: auxiliary reply';

/** Answers one request: server-sent events when it asked for `stream: true`, else one Response object. */
export function sendResponsesReply(response: ServerResponse, body: unknown, reply: ResponsesReply): void {
  const request = asRequest(body);
  const output = outputItems(reply, request);
  if (request.stream !== true) {
    const payload = JSON.stringify(responseObject(reply, request, output, true));
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
    response.end(payload);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  for (const event of streamEvents(reply, request, output)) {
    response.write(`event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`);
  }
  response.end();
}

type Item = Record<string, unknown>;

// One output item per part of the reply: the assistant message first (when there is text), then each
// function call. A call of a function inside a `namespace` tool carries `namespace` and the bare name
// (ResponseFunctionToolCall.namespace: "The namespace of the function to run"); a script names it
// `<namespace>__<function>`, e.g. `mcp__task__shell`, and any other name is rendered as given.
function outputItems(reply: ResponsesReply, request: ResponsesRequest): Item[] {
  const items: Item[] = [];
  if (reply.text !== '' || reply.toolCalls.length === 0) {
    items.push({
      id: `msg_${reply.id}`,
      type: 'message',
      role: 'assistant',
      status: reply.stop === 'max_tokens' ? 'incomplete' : 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [], logprobs: [] }],
    });
  }
  reply.toolCalls.forEach((call, index) => {
    items.push({
      id: `fc_${reply.id}_${index}`,
      type: 'function_call',
      status: 'completed',
      call_id: `call_${reply.id}_${index}`,
      ...resolveName(call.name, request),
      arguments: JSON.stringify(call.input),
    });
  });
  return items;
}

function resolveName(name: string, request: ResponsesRequest): { name: string; namespace?: string } {
  const tools = Array.isArray(request.tools) ? (request.tools as RequestTool[]) : [];
  for (const tool of tools) {
    if (tool.type !== 'namespace' || typeof tool.name !== 'string' || !name.startsWith(`${tool.name}__`)) continue;
    const bare = name.slice(tool.name.length + 2);
    const inner = Array.isArray(tool.tools) ? (tool.tools as RequestTool[]) : [];
    if (inner.some((fn) => fn.name === bare)) return { namespace: tool.name, name: bare };
  }
  return { name };
}

// The events of one streamed response, in the order the API sends them (ResponseStreamEvent): created,
// in_progress, per item `output_item.added` .. deltas .. `output_item.done`, then `response.completed`
// (or `response.incomplete` with `incomplete_details.reason: "max_output_tokens"`), each numbered by
// `sequence_number`.
function streamEvents(reply: ResponsesReply, request: ResponsesRequest, output: Item[]): Item[] {
  const events: Item[] = [];
  const emit = (type: string, fields: Item): void => {
    events.push({ type, sequence_number: events.length, ...fields });
  };
  const pending = responseObject(reply, request, [], false);
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  output.forEach((item, outputIndex) => {
    const at = { item_id: item['id'], output_index: outputIndex };
    if (item['type'] === 'message') {
      const text = reply.text;
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      emit('response.content_part.added', { ...at, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
      for (const delta of chunks(text)) emit('response.output_text.delta', { ...at, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { ...at, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text, annotations: [], logprobs: [] } });
    } else {
      const args = String(item['arguments']);
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of chunks(args)) emit('response.function_call_arguments.delta', { ...at, delta });
      emit('response.function_call_arguments.done', { ...at, arguments: args });
    }
    emit('response.output_item.done', { output_index: outputIndex, item });
  });
  const done = responseObject(reply, request, output, true);
  emit(reply.stop === 'max_tokens' ? 'response.incomplete' : 'response.completed', { response: done });
  return events;
}

function responseObject(reply: ResponsesReply, request: ResponsesRequest, output: Item[], finished: boolean): Item {
  const cut = reply.stop === 'max_tokens';
  return {
    id: `resp_${reply.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: finished ? (cut ? 'incomplete' : 'completed') : 'in_progress',
    error: null,
    incomplete_details: finished && cut ? { reason: 'max_output_tokens' } : null,
    instructions: request.instructions ?? null,
    model: reply.model,
    output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: request.previous_response_id ?? null,
    temperature: 1,
    top_p: 1,
    tool_choice: request.tool_choice ?? 'auto',
    tools: Array.isArray(request.tools) ? request.tools : [],
    usage: finished ? responsesUsage(reply.usage) : null,
    metadata: {},
  };
}

// ResponseUsage: `input_tokens` counts the whole prompt, cached tokens included; `cached_tokens` (read from
// the cache) and `cache_write_tokens` are parts of it.
function responsesUsage(usage: FakeUsage): Item {
  const input = usage.input + usage.cacheRead + usage.cacheWrite;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheRead, cache_write_tokens: usage.cacheWrite },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}

/** Splits a text into a few deltas, as the API streams it, so clients must join them. */
function chunks(text: string): string[] {
  if (text === '') return [];
  const size = Math.max(4, Math.ceil(text.length / 4));
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts;
}

function asRequest(body: unknown): ResponsesRequest {
  return typeof body === 'object' && body !== null ? (body as ResponsesRequest) : {};
}
