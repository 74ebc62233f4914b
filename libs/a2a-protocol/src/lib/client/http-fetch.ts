import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';

/**
 * A `fetch` for talking to peer agents, on node:http with no timeouts of its own: Node's global fetch
 * gives up on a response whose headers or next body chunk take more than 300 s, which a long command
 * or a quiet step of a peer can exceed. Callers bound each call with an AbortSignal instead.
 *
 * Covers what the A2A client uses: string or URL input, a method, headers, a string body, a signal.
 * Connections are not kept alive, so a peer's idle-socket timeout can never break a reused socket.
 */
export function createHttpFetch(): typeof fetch {
  const agents = { http: new HttpAgent({ keepAlive: false }), https: new HttpsAgent({ keepAlive: false }) };
  return (input, init) => send(toUrl(input), init ?? {}, agents);
}

function send(url: URL, init: RequestInit, agents: { http: HttpAgent; https: HttpsAgent }): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const body = toBody(init.body);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  const secure = url.protocol === 'https:';
  const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http };
  return new Promise<Response>((resolve, reject) => {
    let answer: IncomingMessage | undefined;
    const request = (secure ? httpsRequest : httpRequest)(url, options, (incoming) => {
      answer = incoming;
      resolve(toResponse(incoming));
    });
    // An abort fails whatever is pending: the wait for the answer, or the reading of its body.
    const abort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new Error(String(signal?.reason));
      answer?.destroy(reason);
      request.destroy(reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', abort));
    request.once('error', reject);
    request.end(body);
  });
}

function toResponse(incoming: IncomingMessage): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  const status = incoming.statusCode ?? 502;
  // Response refuses a body for these statuses.
  const noBody = status === 204 || status === 205 || status === 304;
  if (noBody) incoming.resume();
  const body = noBody ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
}

function toUrl(input: string | URL | Request): URL {
  if (input instanceof Request) throw new Error('the peer fetch takes a URL, not a Request object');
  return new URL(input);
}

function toBody(body: RequestInit['body']): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  throw new Error('the peer fetch sends string or byte bodies only');
}
