// What the fake server answers, one step per request, in the order the steps were scripted.

/** Token counts of one reply, in the neutral terms both wire formats are rendered from. */
export interface FakeUsage {
  /** Prompt tokens read neither from nor into the cache. */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A call of one of the tools the request offered, as the model would make it. */
export interface FakeToolCall {
  name: string;
  input: Record<string, unknown>;
}

export interface FakeReply {
  kind: 'reply';
  text: string;
  /** Tool calls after the text; the reply then stops for them (Anthropic `tool_use`, OpenAI function calls, Gemini functionCall parts). */
  toolCalls?: FakeToolCall[];
  usage?: Partial<FakeUsage>;
  /** `max_tokens` renders as OpenAI `finish_reason: "length"` and Anthropic `stop_reason: "max_tokens"`. */
  stop: 'end' | 'max_tokens';
  delayMs: number;
}

interface FakeHttpError {
  kind: 'error';
  status: number;
  message: string;
  /** Seconds, sent as the `retry-after` header. */
  retryAfter?: number;
  delayMs: number;
}

/** Closes the connection without an answer, as a crashed proxy or a reset does. */
interface FakeConnectionReset {
  kind: 'reset';
}

export type FakeLlmStep = FakeReply | FakeHttpError | FakeConnectionReset;

export function reply(
  text: string,
  options: { usage?: Partial<FakeUsage>; stop?: FakeReply['stop']; delayMs?: number; toolCalls?: FakeToolCall[] } = {},
): FakeReply {
  return { kind: 'reply', text, toolCalls: options.toolCalls, usage: options.usage, stop: options.stop ?? 'end', delayMs: options.delayMs ?? 0 };
}

/** A reply that calls one tool (after `text`, if any). */
export function toolCall(
  name: string,
  input: Record<string, unknown>,
  options: { text?: string; usage?: Partial<FakeUsage>; delayMs?: number } = {},
): FakeReply {
  return reply(options.text ?? '', { ...options, toolCalls: [{ name, input }] });
}

export function httpError(status: number, options: { message?: string; retryAfter?: number; delayMs?: number } = {}): FakeHttpError {
  return {
    kind: 'error',
    status,
    message: options.message ?? `fake-llm: injected HTTP ${status}`,
    retryAfter: options.retryAfter,
    delayMs: options.delayMs ?? 0,
  };
}

export function connectionReset(): FakeConnectionReset {
  return { kind: 'reset' };
}

/** Counts for a reply that scripted none: a rough four characters per token, deterministic. */
export function defaultUsage(requestChars: number, text: string, given: Partial<FakeUsage> = {}): FakeUsage {
  return {
    input: given.input ?? Math.ceil(requestChars / 4),
    output: given.output ?? Math.max(1, Math.ceil(text.length / 4)),
    cacheRead: given.cacheRead ?? 0,
    cacheWrite: given.cacheWrite ?? 0,
  };
}
