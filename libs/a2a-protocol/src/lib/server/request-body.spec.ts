import { once } from 'node:events';
import { connect } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { fillerStream, postRaw, readJson, sendMessageBody as sendBody } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

const LIMIT = 64 * 1024;

// Every JSON-RPC error goes out with HTTP 200, a refused body's too: the Python a2a 0.3 client raises
// on an HTTP error status before it reads the body, so it would never see why.
describe('request bodies of the JSON-RPC endpoint', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor, maxBodyBytes: LIMIT });
  });
  afterAll(() => agent.close());

  const post = (body: string, version?: string) =>
    fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json', ...(version ? { 'A2A-Version': version } : {}) }, body });

  it.each([
    ['v0.3', undefined],
    ['v1.0', '1.0'],
  ])('answers a null body with Invalid Request (-32600) in %s, not an internal error', async (_name, version) => {
    const response = await post('null', version);

    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: a request must be a JSON-RPC request object' },
    });
  });

  it.each(['5', '"message/send"', 'true'])('answers the body %s, which is no request object, with -32600', async (body) => {
    const response = await post(body, '1.0');

    expect(response.status).toBe(200);
    expect(await readJson(response)).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it('answers a body that is not JSON with Parse error (-32700), and an empty one with -32600', async () => {
    const broken = await post('{"jsonrpc": ');
    const empty = await post('');

    expect([broken.status, await readJson(broken)]).toEqual([
      200,
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } },
    ]);
    expect([empty.status, await readJson(empty)]).toEqual([
      200,
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the body is empty' } },
    ]);
  });

  it.each(['text/plain', 'application/xml'])('answers a body sent as %s with -32600 naming the media type it takes', async (type) => {
    const response = await fetch(agent.url, { method: 'POST', headers: { 'content-type': type }, body: JSON.stringify(sendBody('hi')) });

    expect([response.status, await readJson(response)]).toEqual([
      200,
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the body must be sent as application/json' } },
    ]);
  });

  it('runs a message whose body is just under the limit', async () => {
    const text = 'a'.repeat(LIMIT - JSON.stringify(sendBody('')).length);
    const body = Buffer.from(JSON.stringify(sendBody(text)));

    const answer = await postRaw(agent.url, body);

    expect(body.length).toBe(LIMIT);
    expect(answer.status).toBe(200);
    expect(answer.body?.result.status.state).toBe('completed');
  });

  it('refuses a body over the limit by its Content-Length with a JSON-RPC error naming the limit', async () => {
    const calls = agent.app.get(EchoExecutor).calls.length;

    const answer = await postRaw(agent.url, fillerStream(50 * 1024 * 1024), { 'content-length': String(50 * 1024 * 1024) });

    expect(answer).toEqual({
      status: 200,
      body: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: the body is larger than this agent's limit of ${LIMIT} bytes (A2A_MAX_BODY_BYTES)` },
      },
    });
    expect(agent.app.get(EchoExecutor).calls).toHaveLength(calls);
  });

  it('answers a chunked body as soon as it passes the limit, before the rest is sent', async () => {
    const body = fillerStream(50 * 1024 * 1024);
    let sent = 0;
    body.on('data', (chunk: Buffer) => (sent += chunk.length));

    const answer = await postRaw(agent.url, body);

    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ error: { code: -32600 } });
    // The limit and what the sockets' buffers took, not the 50 MB.
    expect(sent).toBeLessThan(10 * 1024 * 1024);
    expect(await postRaw(agent.url, Buffer.from(JSON.stringify(sendBody('next'))))).toMatchObject({ status: 200 });
  });

  it('reads a refused body to its end and drops it, so that a client that sends it all before reading gets the answer, not a reset', async () => {
    const answer = await sendAllThenRead(agent.url, 20 * 1024 * 1024);

    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"code":-32600');
  });

  it('answers a readable call as before: an unknown method is -32601', async () => {
    const answer = await postRaw(agent.url, Buffer.from(JSON.stringify({ id: 'x', jsonrpc: '2.0', method: 'tasks/teleport', params: {} })));

    expect(answer).toMatchObject({ status: 200, body: { id: 'x', error: { code: -32601 } } });
  });
});

/** A POST of `bytes` bytes over a plain socket, all sent before anything is read, as simple clients do; the raw answer. */
async function sendAllThenRead(url: string, bytes: number): Promise<string> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.write(`POST / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\n\r\n`);
  await pipeline(fillerStream(bytes), socket, { end: false });
  socket.end();
  await once(socket, 'close');
  return Buffer.concat(received).toString('utf8');
}
