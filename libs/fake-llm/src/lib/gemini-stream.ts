// The Gemini API's generateContent family, as `@google/genai` (bundled in Gemini CLI) calls it:
// `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, `:generateContent` and `:countTokens`.
// Shapes follow the SDK's GenerateContentResponse, UsageMetadata and FinishReason types and the API's
// google.rpc.Status error body; the stream framing follows the SDK's reader (`data: <json>` lines, each
// ended by a blank line, matched by its `responseLineRE`).
import type { ServerResponse } from 'node:http';
import { defaultUsage, type FakeLlmStep, type FakeReply, type FakeUsage } from './fake-llm-script';

export type GeminiMethod = 'streamGenerateContent' | 'generateContent' | 'countTokens';

export interface GeminiRoute {
  model: string;
  method: GeminiMethod;
}

/** What the server lends the Gemini stand-in for one request. */
export interface GeminiExchange {
  route: GeminiRoute;
  /** The parsed JSON body (the raw text when it was not JSON) and its length in characters. */
  body: unknown;
  bodyChars: number;
  query: URLSearchParams;
  headers: Record<string, string>;
  response: ServerResponse;
  /** When set, requests presenting another key are refused as the API refuses them. */
  apiKey?: string;
  /** Takes the next scripted step (or the server's fallback). */
  nextStep(): FakeLlmStep;
  delay(ms: number): Promise<void>;
  /** Closes the connection without an answer. */
  reset(): void;
  nextId(): string;
}

// The SDK builds `<base>/<apiVersion>/models/<model>:<method>` (v1beta by default, GOOGLE_GENAI_API_VERSION otherwise).
const ROUTE = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/;

export function geminiRoute(path: string): GeminiRoute | undefined {
  const match = ROUTE.exec(path);
  return match ? { model: decodeURIComponent(match[1]), method: match[2] as GeminiMethod } : undefined;
}

/** The text an auxiliary request gets when it asks for no JSON. */
export const GEMINI_AUXILIARY_TEXT = 'fake-llm: auxiliary reply';

export async function serveGemini(exchange: GeminiExchange): Promise<void> {
  const { route, body, response } = exchange;
  // The API takes its key in the `x-goog-api-key` header or the `key` query parameter; a wrong one is a 400
  // INVALID_ARGUMENT "API key not valid", not a 401.
  const key = exchange.headers['x-goog-api-key'] ?? exchange.query.get('key') ?? undefined;
  if (exchange.apiKey !== undefined && key !== exchange.apiKey) {
    return sendJson(response, 400, geminiError(400, 'API key not valid. Please pass a valid API key.'));
  }
  if (route.method === 'countTokens') return sendJson(response, 200, { totalTokens: Math.ceil(exchange.bodyChars / 4) });

  // Auxiliary requests: Gemini CLI's utility calls (model routing's classifier, the next-speaker check, loop
  // detection, compression, summaries; its BaseLlmClient.generateJson/generateContent) offer no function
  // declarations, while each turn of its agent (GeminiChat) offers the tool registry's. They are answered here
  // without taking a scripted step.
  if (!offersFunctions(body)) {
    const text = auxiliaryText(body);
    return renderReply(exchange, { text, usage: defaultUsage(exchange.bodyChars, text), stop: 'end', toolCalls: [] });
  }
  const step = exchange.nextStep();
  if (step.kind === 'reset') return exchange.reset();
  await exchange.delay(step.delayMs);
  if (response.destroyed) return;
  if (step.kind === 'error') {
    const extra: Record<string, string> = step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
    return sendJson(response, step.status, geminiError(step.status, step.message), extra);
  }
  renderReply(exchange, replyOf(step, exchange.bodyChars));
}

interface GeminiReply {
  text: string;
  toolCalls: NonNullable<FakeReply['toolCalls']>;
  usage: FakeUsage;
  stop: FakeReply['stop'];
}

function replyOf(step: FakeReply, bodyChars: number): GeminiReply {
  return { text: step.text, toolCalls: step.toolCalls ?? [], usage: defaultUsage(bodyChars, step.text, step.usage), stop: step.stop };
}

function renderReply(exchange: GeminiExchange, reply: GeminiReply): void {
  const { route, response } = exchange;
  const id = exchange.nextId();
  if (route.method === 'generateContent') {
    const whole = chunk(route.model, id, partsOf(reply, [reply.text]), usageMetadata(reply.usage, true), finishReason(reply));
    return sendJson(response, 200, whole);
  }
  const parts = partsOf(reply, textPieces(reply.text));
  // Streaming: text arrives in several chunks, each function call whole in one; every chunk carries
  // usageMetadata (the prompt's count; the candidates' in the last one), and the last one the finishReason.
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  parts.forEach((part, index) => {
    const last = index === parts.length - 1;
    const body = chunk(route.model, id, [part], usageMetadata(reply.usage, last), last ? finishReason(reply) : undefined);
    response.write(`data: ${JSON.stringify(body)}\r\n\r\n`);
  });
  response.end();
}

type Part = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

function partsOf(reply: GeminiReply, texts: string[]): Part[] {
  const parts: Part[] = texts.filter((text) => text.length > 0).map((text) => ({ text }));
  for (const call of reply.toolCalls) parts.push({ functionCall: { name: call.name, args: call.input } });
  return parts.length > 0 ? parts : [{ text: '' }];
}

/** The text in pieces of about 24 characters, cut after a space, as the API streams it in small deltas. */
function textPieces(text: string): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > 24) {
    const cut = rest.indexOf(' ', 24);
    if (cut < 0) break;
    pieces.push(rest.slice(0, cut + 1));
    rest = rest.slice(cut + 1);
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces;
}

function chunk(model: string, id: string, parts: Part[], usage: Record<string, number>, finish?: string): Record<string, unknown> {
  const candidate = { content: { role: 'model', parts }, index: 0, ...(finish ? { finishReason: finish } : {}) };
  return { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId: id };
}

function finishReason(reply: GeminiReply): string {
  return reply.stop === 'max_tokens' ? 'MAX_TOKENS' : 'STOP';
}

// UsageMetadata: promptTokenCount counts the whole prompt, cachedContentTokenCount the part of it read from
// the cache (a subset); the API reports no cache writes, so they count as prompt.
function usageMetadata(usage: FakeUsage, complete: boolean): Record<string, number> {
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  const cached: Record<string, number> = usage.cacheRead > 0 ? { cachedContentTokenCount: usage.cacheRead } : {};
  if (!complete) return { promptTokenCount: prompt, totalTokenCount: prompt, ...cached };
  return { promptTokenCount: prompt, candidatesTokenCount: usage.output, totalTokenCount: prompt + usage.output, ...cached };
}

function offersFunctions(body: unknown): boolean {
  const tools = field(body, 'tools');
  if (!Array.isArray(tools)) return false;
  return tools.some((tool) => {
    const declarations = field(tool, 'functionDeclarations');
    return Array.isArray(declarations) && declarations.length > 0;
  });
}

/** JSON that fits the schema the request asks for (generationConfig.responseJsonSchema or responseSchema), else a fixed text. */
function auxiliaryText(body: unknown): string {
  const config = field(body, 'generationConfig');
  const schema = field(config, 'responseJsonSchema') ?? field(config, 'responseSchema');
  return schema === undefined ? GEMINI_AUXILIARY_TEXT : JSON.stringify(valueFor(schema));
}

// Each value is the schema's first enum value or its type's least value (an integer from 1, a number from 0):
// the next-speaker check (`next_speaker` enum ["user", "model"]) gets "user", which ends the turn; the routing
// classifier (integer `complexity_score` 1-100) the lowest complexity; loop detection (number
// `unproductive_state_confidence` 0-1) no loop.
function valueFor(schema: unknown): unknown {
  const choices = field(schema, 'enum');
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  const type = String(field(schema, 'type') ?? 'string').toLowerCase();
  if (type === 'object') {
    const properties = field(schema, 'properties');
    const entries = typeof properties === 'object' && properties !== null ? Object.entries(properties) : [];
    return Object.fromEntries(entries.map(([name, sub]) => [name, valueFor(sub)]));
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') {
    const minimum = field(schema, 'minimum');
    return typeof minimum === 'number' ? minimum : type === 'integer' ? 1 : 0;
  }
  return GEMINI_AUXILIARY_TEXT;
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

// google.rpc.Status as the API sends it: `{ error: { code, message, status } }`.
const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiError(status: number, message: string): Record<string, unknown> {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
}

function sendJson(response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(payload), ...headers });
  response.end(payload);
}
