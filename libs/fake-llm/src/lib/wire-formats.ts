// The two HTTP APIs the fake speaks, rendered the way the providers render them, so that the real SDKs
// parse replies, usage and errors exactly as they would in production.
import { anthropicStopReason, anthropicToolUseId } from './anthropic-stream';
import type { FakeToolCall, FakeUsage } from './fake-llm-script';

/** `openai-responses` is served by openai-responses.ts, `gemini` by gemini-stream.ts. */
export type FakeApi = 'openai' | 'anthropic' | 'openai-responses' | 'gemini';

export interface WireReply {
  model: string;
  text: string;
  usage: FakeUsage;
  stop: 'end' | 'max_tokens';
  id: string;
  toolCalls?: FakeToolCall[];
}

export function renderReply(api: FakeApi, reply: WireReply): Record<string, unknown> {
  return api === 'openai' ? openAiCompletion(reply) : anthropicMessage(reply);
}

export function renderError(api: FakeApi, status: number, message: string): Record<string, unknown> {
  if (api !== 'anthropic') {
    return { error: { message, type: openAiErrorType(status), param: null, code: status === 401 ? 'invalid_api_key' : null } };
  }
  return { type: 'error', error: { type: anthropicErrorType(status), message } };
}

/** The key a request presented: a bearer token, or Anthropic's `x-api-key` header. */
export function presentedKey(api: FakeApi, headers: Record<string, string>): string | undefined {
  const bearer = headers['authorization']?.replace(/^Bearer\s+/i, '');
  return api === 'anthropic' ? (headers['x-api-key'] ?? bearer) : bearer;
}

// OpenAI counts cached prompt tokens inside prompt_tokens; it reports no cache writes.
function openAiCompletion(reply: WireReply): Record<string, unknown> {
  const prompt = reply.usage.input + reply.usage.cacheRead + reply.usage.cacheWrite;
  return {
    id: reply.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: reply.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text, refusal: null },
        logprobs: null,
        finish_reason: reply.stop === 'max_tokens' ? 'length' : 'stop',
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: reply.usage.output,
      total_tokens: prompt + reply.usage.output,
      prompt_tokens_details: { cached_tokens: reply.usage.cacheRead },
    },
  };
}

// Tool calls follow the text as tool_use blocks and stop the message with `tool_use` (ToolUseBlock, StopReason).
function anthropicMessage(reply: WireReply): Record<string, unknown> {
  const calls = (reply.toolCalls ?? []).map((call, index) => ({ type: 'tool_use', id: anthropicToolUseId(reply, index), name: call.name, input: call.input }));
  const text = reply.text !== '' || calls.length === 0 ? [{ type: 'text', text: reply.text }] : [];
  return {
    id: reply.id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [...text, ...calls],
    stop_reason: anthropicStopReason(reply),
    stop_sequence: null,
    usage: {
      input_tokens: reply.usage.input,
      output_tokens: reply.usage.output,
      cache_creation_input_tokens: reply.usage.cacheWrite,
      cache_read_input_tokens: reply.usage.cacheRead,
    },
  };
}

function openAiErrorType(status: number): string {
  if (status === 429) return 'rate_limit_exceeded';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}
