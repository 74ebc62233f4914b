import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PendingSleeps } from '@arvo-rca/common';
import { sendAnthropicStream, wantsAnthropicStream } from './anthropic-stream';
import { defaultUsage, type FakeLlmStep, type FakeReply } from './fake-llm-script';
import { FakeLlmScripts } from './fake-llm-scripts';
import { AUXILIARY_RESPONSES_TEXT, isAuxiliaryResponsesRequest, sendResponsesReply } from './openai-responses';
import { presentedKey, renderError, renderReply, type FakeApi } from './wire-formats';
import { geminiRoute, serveGemini, type GeminiRoute } from './gemini-stream';

/** One request as the server received it, kept for assertions (cache breakpoints, retries, keys). */
export interface RecordedRequest {
  api: FakeApi | 'unknown';
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  receivedAt: number;
}

interface FakeLlmServerOptions {
  /** When set, requests presenting another key get the provider's 401. */
  apiKey?: string;
  /** Answered once the script is used up; by default a 400 that names the problem (never retried). */
  fallback?: FakeLlmStep;
  /** Answers requests that are not the agent's turn (a CLI's auxiliary calls) without taking a step of the script. */
  aside?: (body: unknown, api: FakeApi) => FakeReply | undefined;
}

const ROUTES: Record<string, FakeApi> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
  '/v1/responses': 'openai-responses',
  '/responses': 'openai-responses',
};

/**
 * A real HTTP server on a loopback port speaking OpenAI Chat Completions, Anthropic Messages and Gemini generateContent well
 * enough for the real SDKs. Each request takes the next scripted step, whichever API it came on; requests of a
 * conversation scripted on its own (`scriptFor`) take that conversation's next step instead.
 */
export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  private readonly steps = new FakeLlmScripts();
  private readonly sleeps = new PendingSleeps();
  private replies = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: FakeLlmServerOptions,
  ) {}

  static async start(options: FakeLlmServerOptions = {}): Promise<FakeLlmServer> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const fake = new FakeLlmServer(server, `http://127.0.0.1:${port}`, options);
    server.on('request', (request, response) => void fake.handle(request, response));
    return fake;
  }

  /** The base URL for the `openai` client (it appends `/chat/completions`). */
  get openAiBaseUrl(): string {
    return `${this.url}/v1`;
  }

  /** The base URL for `@google/genai` (GOOGLE_GEMINI_BASE_URL for Gemini CLI; it appends `/v1beta/models/...`). */
  get geminiBaseUrl(): string {
    return this.url;
  }

  /** The base URL for the `@anthropic-ai/sdk` client (it appends `/v1/messages`). */
  get anthropicBaseUrl(): string {
    return this.url;
  }

  /** Appends steps to the script. */
  script(...steps: FakeLlmStep[]): this {
    this.steps.add(steps);
    return this;
  }

  /**
   * Appends steps to the script of one conversation: the requests whose body contains `marker` (say the task
   * id its prompt names) take these steps in order, and no shared one; other requests go on with the shared
   * script. So several agents at once each follow their own, however their requests interleave.
   */
  scriptFor(marker: string, ...steps: FakeLlmStep[]): this {
    this.steps.addFor(marker, steps);
    return this;
  }

  /** Steps not yet consumed, of the shared script and of every conversation's. */
  get pending(): number {
    return this.steps.pending;
  }

  /** Steps not yet consumed by the conversation of `marker`. */
  pendingFor(marker: string): number {
    return this.steps.pendingFor(marker);
  }

  async close(): Promise<void> {
    this.sleeps.cancelAll();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const path = (request.url ?? '/').split('?')[0];
    const api = request.method === 'POST' ? ROUTES[path] : undefined;
    const gemini = request.method === 'POST' ? geminiRoute(path) : undefined;
    const headers = flattenHeaders(request);
    this.requests.push({
      api: api ?? (gemini ? 'gemini' : 'unknown'),
      method: request.method ?? '',
      path,
      headers,
      body: parseJson(text),
      receivedAt: Date.now(),
    });
    if (gemini) return this.serveGemini(gemini, request, response, text, headers);

    if (!api) return send(response, 404, { error: { message: `fake-llm: no route for ${request.method} ${path}` } });
    if (this.options.apiKey !== undefined && presentedKey(api, headers) !== this.options.apiKey) {
      const message = api === 'anthropic' ? 'invalid x-api-key' : 'Incorrect API key provided.';
      return send(response, 401, renderError(api, 401, message));
    }
    if (api === 'openai-responses' && isAuxiliaryResponsesRequest(parseJson(text))) {
      return sendResponsesReply(response, parseJson(text), {
        id: 'aux',
        model: modelOf(parseJson(text)),
        text: AUXILIARY_RESPONSES_TEXT,
        toolCalls: [],
        usage: defaultUsage(text.length, ''),
        stop: 'end',
      });
    }
    const aside = this.options.aside?.(parseJson(text), api);
    const step = aside ?? this.steps.next(text, this.options.fallback);
    if (step.kind === 'reset') {
      request.socket.destroy();
      return;
    }
    await this.delay(step.delayMs);
    if (response.destroyed) return;
    if (step.kind === 'error') {
      const extra: Record<string, string> = step.retryAfter === undefined ? {} : { 'retry-after': String(step.retryAfter) };
      return send(response, step.status, renderError(api, step.status, step.message), extra);
    }
    const model = modelOf(parseJson(text));
    const usage = defaultUsage(text.length, step.text, step.usage);
    this.replies += 1;
    if (api === 'openai-responses') {
      return sendResponsesReply(response, parseJson(text), {
        id: `fake-${this.replies}`,
        model,
        text: step.text,
        toolCalls: step.toolCalls ?? [],
        usage,
        stop: step.stop,
      });
    }
    const wire = { model, text: step.text, toolCalls: step.toolCalls, usage, stop: step.stop, id: `fake-${this.replies}` };
    if (api === 'anthropic' && wantsAnthropicStream(parseJson(text))) return sendAnthropicStream(response, wire);
    send(response, 200, renderReply(api, wire));
  }

  private serveGemini(route: GeminiRoute, request: IncomingMessage, response: ServerResponse, text: string, headers: Record<string, string>): Promise<void> {
    return serveGemini({
      route,
      body: parseJson(text),
      bodyChars: text.length,
      query: new URL(request.url ?? '/', this.url).searchParams,
      headers,
      response,
      apiKey: this.options.apiKey,
      nextStep: () => this.steps.next(text, this.options.fallback),
      delay: (ms) => this.delay(ms),
      reset: () => request.socket.destroy(),
      nextId: () => `fake-${(this.replies += 1)}`,
    });
  }

  private delay(ms: number): Promise<void> {
    return ms <= 0 ? Promise.resolve() : this.sleeps.sleep(ms);
  }
}

function send(response: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers });
  response.end(payload);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function flattenHeaders(request: IncomingMessage): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function modelOf(body: unknown): string {
  const model = typeof body === 'object' && body !== null ? (body as { model?: unknown }).model : undefined;
  return typeof model === 'string' ? model : 'fake-model';
}
