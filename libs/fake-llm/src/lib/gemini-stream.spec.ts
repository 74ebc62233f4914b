// The Gemini stand-in at the HTTP level; the real client (Gemini CLI's bundled @google/genai) drives it in the
// purple agent's gemini-cli.spec.ts.
import { FakeLlmServer } from './fake-llm-server';
import { connectionReset, httpError, reply, toolCall } from './fake-llm-script';
import { GEMINI_AUXILIARY_TEXT } from './gemini-stream';

const TOOLS = [{ functionDeclarations: [{ name: 'mcp_task_shell', parametersJsonSchema: { type: 'object' } }] }];
const KEY = 'gemini-key';

async function post(url: string, body: unknown, key = KEY): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-goog-api-key': key }, body: JSON.stringify(body) });
}

/** The stream's `data:` payloads, cut as the SDK's reader cuts them (`data: <json>` and a blank line). */
async function events(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  const payloads = [...text.matchAll(/^data: (.*)\r\n\r\n/gm)].map((match) => JSON.parse(match[1]) as Record<string, unknown>);
  expect(payloads.map((payload) => `data: ${JSON.stringify(payload)}\r\n\r\n`).join('')).toBe(text);
  return payloads;
}

describe('the Gemini API stand-in (generateContent family)', () => {
  let server: FakeLlmServer;
  let stream: string;
  beforeEach(async () => {
    server = await FakeLlmServer.start({ apiKey: KEY });
    stream = `${server.geminiBaseUrl}/v1beta/models/gemini-test:streamGenerateContent?alt=sse`;
  });
  afterEach(async () => {
    await server.close();
  });

  it('streams text in deltas then a function call, with usage on every chunk and the finish reason on the last', async () => {
    server.script(
      toolCall(
        'mcp_task_shell',
        { command: 'ls /src' },
        { text: 'Looking at the sources before anything else.', usage: { input: 100, output: 9, cacheRead: 400 } },
      ),
    );

    const response = await post(stream, { contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools: TOOLS });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const chunks = await events(response);

    const parts = chunks.map((chunk) => (chunk['candidates'] as { content: { parts: unknown[] } }[])[0].content.parts[0]);
    expect(parts).toEqual([
      { text: 'Looking at the sources before ' },
      { text: 'anything else.' },
      { functionCall: { name: 'mcp_task_shell', args: { command: 'ls /src' } } },
    ]);
    expect(chunks.map((chunk) => (chunk['candidates'] as { finishReason?: string }[])[0].finishReason)).toEqual([undefined, undefined, 'STOP']);
    expect(chunks[0]).toMatchObject({ modelVersion: 'gemini-test', usageMetadata: { promptTokenCount: 500, cachedContentTokenCount: 400 } });
    expect(chunks[2]['usageMetadata']).toEqual({ promptTokenCount: 500, candidatesTokenCount: 9, totalTokenCount: 509, cachedContentTokenCount: 400 });
    expect(server.requests[0]).toMatchObject({ api: 'gemini', path: '/v1beta/models/gemini-test:streamGenerateContent' });
  });

  it('answers non-streamed generateContent whole, and MAX_TOKENS when scripted', async () => {
    server.script(reply('cut', { stop: 'max_tokens', usage: { input: 7, output: 2 } }));

    const body = await (await post(`${server.geminiBaseUrl}/v1beta/models/gemini-test:generateContent`, { contents: [], tools: TOOLS })).json();

    expect(body).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS', index: 0 }],
      usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 2, totalTokenCount: 9 },
    });
  });

  it('answers auxiliary requests (no function declarations) without taking a scripted step', async () => {
    server.script(reply('the agent turn'));
    const nextSpeaker = {
      type: 'object',
      properties: { reasoning: { type: 'string' }, next_speaker: { type: 'string', enum: ['user', 'model'] } },
    };
    const classifier = { type: 'OBJECT', properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } } };
    const url = `${server.geminiBaseUrl}/v1beta/models/flash-lite:generateContent`;

    const answers = await Promise.all(
      [{ responseJsonSchema: nextSpeaker }, { responseSchema: classifier }, {}].map(async (generationConfig) => {
        const body = (await (await post(url, { contents: [], generationConfig })).json()) as { candidates: { content: { parts: { text: string }[] } }[] };
        return body.candidates[0].content.parts[0].text;
      }),
    );
    const counted = await (
      await post(`${server.geminiBaseUrl}/v1beta/models/flash-lite:countTokens`, { contents: [{ parts: [{ text: 'x'.repeat(80) }] }] })
    ).json();

    expect(JSON.parse(answers[0])).toEqual({ reasoning: GEMINI_AUXILIARY_TEXT, next_speaker: 'user' });
    expect(JSON.parse(answers[1])).toEqual({ complexity_reasoning: GEMINI_AUXILIARY_TEXT, complexity_score: 1 });
    expect(answers[2]).toBe(GEMINI_AUXILIARY_TEXT);
    expect(counted).toEqual({ totalTokens: expect.any(Number) });
    expect(server.pending).toBe(1);
  });

  it('refuses a wrong key as the API does, renders scripted errors as google.rpc.Status, and resets', async () => {
    server.script(httpError(429, { message: 'quota', retryAfter: 3 }), connectionReset());

    const badKey = await post(stream, { contents: [], tools: TOOLS }, 'not-the-key');
    expect(badKey.status).toBe(400);
    expect(await badKey.json()).toEqual({ error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } });

    const limited = await post(stream, { contents: [], tools: TOOLS });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({ error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } });

    await expect(post(stream, { contents: [], tools: TOOLS })).rejects.toThrow();
    expect(server.pending).toBe(0);
  });
});
