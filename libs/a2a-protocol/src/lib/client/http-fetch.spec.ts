import { createServer, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDLE_CONNECTION_MS } from '@arvo-rca/common';
import { createHttpFetch } from './http-fetch';
import { readJson } from '../testing/http.testing';

// An event stream written in pieces that end mid-line: a heartbeat, a 200 kB event in 10 kB pieces, a short one.
const PIECES = [': keep-alive\n\ndata: ', ...Array.from({ length: 20 }, () => 'x'.repeat(10_000)), '\n\ndata: {"a":', '1}\n\n'];

function writeInPieces(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const endless = response.req.url?.endsWith('?endless');
  const pieces = endless ? ['data: ', ...Array.from({ length: 20 }, () => 'x'.repeat(100_000))] : PIECES;
  const next = (at: number): void => {
    if (at === pieces.length) return void (endless ? undefined : response.end());
    response.write(pieces[at]);
    setTimeout(() => next(at + 1), 1);
  };
  next(0);
}

async function readPieces(response: Response): Promise<string[]> {
  const pieces: string[] = [];
  const decoder = new TextDecoder();
  for await (const piece of response.body ?? []) pieces.push(decoder.decode(piece));
  return pieces;
}

describe('createHttpFetch', () => {
  let server: Server;
  let url: string;
  const held = new Set<ServerResponse>();
  // Each connection the server took, and whether it has closed.
  const connections: { closed: boolean }[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/empty') return void response.writeHead(204).end();
      if (request.url === '/echo') {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () =>
          response.writeHead(200, { 'x-method': request.method ?? '', 'x-auth': request.headers.authorization ?? '' }).end(Buffer.concat(chunks)),
        );
        return;
      }
      if (request.url?.startsWith('/pieces')) return void writeInPieces(response);
      // A slow stream: one chunk now, the rest only when the test says so.
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      held.add(response);
    });
    server.on('connection', (socket) => {
      const connection = { closed: false };
      connections.push(connection);
      socket.once('close', () => (connection.closed = true));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    held.forEach((response) => response.destroy());
    await new Promise((resolve) => server.close(resolve));
  });

  const fetchWith = createHttpFetch();

  it('sends the method, headers and body, and reads the answer', async () => {
    const response = await fetchWith(`${url}/echo`, {
      method: 'POST',
      headers: { authorization: 'Bearer x' },
      body: JSON.stringify({ big: 'é'.repeat(100_000) }),
    });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-method')).toBe('POST');
    expect(response.headers.get('x-auth')).toBe('Bearer x');
    expect((await readJson(response)).big).toHaveLength(100_000);
  });

  it('hands out a streamed body as it arrives', async () => {
    const response = await fetchWith(new URL(`${url}/stream`));
    const reader = response.body?.getReader();
    const first = await reader?.read();

    expect(new TextDecoder().decode(first?.value)).toBe('data: first\n\n');
    await reader?.cancel();
  });

  it('hands out an event stream in whole lines, however the socket cut it', async () => {
    const pieces = await readPieces(await fetchWith(`${url}/pieces`));

    expect(pieces.join('')).toBe(PIECES.join(''));
    expect(pieces.every((piece) => piece.endsWith('\n'))).toBe(true);
    expect(pieces).toContain(`data: ${'x'.repeat(200_000)}\n\n`);
  });

  it('passes on an unfinished line once it is over 1 MiB, so that the parser can refuse it', async () => {
    const response = await fetchWith(`${url}/pieces?endless`);
    const reader = response.body?.getReader();
    const first = await reader?.read();

    expect(first?.value?.byteLength).toBeGreaterThanOrEqual(1024 * 1024);
    await reader?.cancel();
  });

  it('fails the body when the signal aborts while it streams', async () => {
    const controller = new AbortController();
    const response = await fetchWith(`${url}/stream`, { signal: controller.signal });
    const text = response.text();
    controller.abort(new Error('deadline'));

    await expect(text).rejects.toThrow('deadline');
  });

  it('refuses to start when the signal has already aborted', async () => {
    await expect(fetchWith(`${url}/echo`, { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow('too late');
  });

  it('makes calls in a row on one connection, and closes it once it has waited unused IDLE_CONNECTION_MS', async () => {
    const fresh = createHttpFetch();
    const before = connections.length;
    for (let call = 0; call < 5; call++) {
      const response = await fresh(`${url}/echo`, { method: 'POST', body: `call ${call}` });
      expect(await response.text()).toBe(`call ${call}`);
    }
    const made = connections.slice(before);

    expect(made).toEqual([{ closed: false }]);
    await sleep(IDLE_CONNECTION_MS + 500);
    expect(made).toEqual([{ closed: true }]);
  });

  it('gives a body-less answer no body', async () => {
    const response = await fetchWith(`${url}/empty`);

    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
  });
});

// A peer that closes a kept connection just as the next call goes out on it: the race an unannounced idle
// timeout leaves (uvicorn's, for one, sends no Keep-Alive hint). Raw TCP, so that the reset is certain.
describe('createHttpFetch, when a peer closes a kept connection as a call goes out on it', () => {
  let server: TcpServer;
  let url: string;
  // For each connection, how many requests it had; `resetAt` says which request of a connection is reset.
  const requests: number[] = [];
  let resetAt: (connection: number, request: number) => boolean = () => false;
  beforeAll(async () => {
    server = createTcpServer((socket) => {
      const connection = requests.push(0) - 1;
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        for (let end = text.indexOf('\r\n\r\n'); end >= 0; end = text.indexOf('\r\n\r\n')) {
          text = text.slice(end + 4);
          const request = requests[connection]++;
          if (resetAt(connection, request)) return void socket.resetAndDestroy();
          const answer = `answer ${connection}:${request}`;
          socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${answer.length}\r\n\r\n${answer}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  beforeEach(() => requests.splice(0));

  it('sends the call once more, on a new connection', async () => {
    resetAt = (connection, request) => connection === 0 && request === 1;
    const peer = createHttpFetch();

    expect(await (await peer(url)).text()).toBe('answer 0:0');
    expect(await (await peer(url)).text()).toBe('answer 1:0');
    expect(requests).toEqual([2, 1]);
  });

  it('fails a call whose new connection was reset, and tries no more', async () => {
    resetAt = () => true;
    const peer = createHttpFetch();

    await expect(peer(url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toEqual([1]);
  });

  it('fails a call whose second try was reset too', async () => {
    resetAt = (connection, request) => request === 1 || connection > 0;
    const peer = createHttpFetch();

    expect(await (await peer(url)).text()).toBe('answer 0:0');
    await expect(peer(url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    expect(requests).toEqual([2, 1]);
  });
});
