import { request as httpRequest, type Agent as HttpAgent, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable, Transform } from 'node:stream';
import { idleBoundAgent } from '@arvo-rca/common';
import { DEFAULT_MAX_BODY_BYTES } from '../server/a2a-server.tokens';
import { boundedBody, refusedByLength } from './reply-bound';

// What a body may hold of unread bytes before the socket is paused. The default, 16 KiB, pauses and
// resumes the socket at nearly every chunk of a large body, and each resume waits its turn on a busy CPU.
const BODY_STRATEGY = new ByteLengthQueuingStrategy({ highWaterMark: 1024 * 1024 });

// The most of an unfinished line held back from the SSE parser (see wholeLines).
const MAX_HELD_LINE_BYTES = 1024 * 1024;

interface HttpFetchOptions {
  /** The most of a reply that is not an event stream it reads (`A2A_MAX_BODY_BYTES`, default 8 MiB). */
  maxBodyBytes?: number;
}

interface Sending {
  agents: { http: HttpAgent; https: HttpAgent };
  maxBodyBytes: number;
}

/**
 * A `fetch` for talking to peer agents, on node:http with no timeouts of its own: Node's global fetch
 * gives up on a response whose headers or next body chunk take more than 300 s, which a long command
 * or a quiet step of a peer can exceed. Callers bound each call with an AbortSignal instead.
 *
 * Covers what the A2A client uses: string or URL input, a method, headers, a string body, a signal.
 * Connections are kept for the next call, but only IDLE_CONNECTION_MS unused, so that a peer's idle-socket
 * timeout never breaks a reused one: at 128 tasks at once the green agent called the purple agent some 60
 * times a second, and a new connection for each (connect, and the peer's accept) was the largest cost of
 * its calls. A call on a kept connection that the peer closed as the call went out (a reset before any
 * answer) goes once more on a new one.
 *
 * No reply is held whole unbounded: one that is not an event stream the caller asked for is refused
 * unread when its Content-Length is above `maxBodyBytes`, and fails as soon as more arrives (the
 * socket destroyed), with an A2aPeerError `PEER_TOO_LARGE` that names the URL, the bound and what was
 * seen. An event stream is bounded per event by the SDK's parser (4 MiB), which an endless line also
 * reaches (see wholeLines).
 */
export function createHttpFetch(options: HttpFetchOptions = {}): typeof fetch {
  const agents = { http: idleBoundAgent('http'), https: idleBoundAgent('https') };
  const sending = { agents, maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES };
  return (input, init) => send(toUrl(input), init ?? {}, sending);
}

// How a peer that closed a kept connection as a call went out on it shows: the call never reached it.
const CLOSED_UNDER_US = new Set(['ECONNRESET', 'EPIPE']);

function send(url: URL, init: RequestInit, { agents, maxBodyBytes }: Sending, again = true): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const body = toBody(init.body);
  const headers = Object.fromEntries(new Headers(init.headers).entries());
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  const secure = url.protocol === 'https:';
  const options = { method: init.method ?? 'GET', headers, agent: secure ? agents.https : agents.http };
  return new Promise<Response>((resolve, reject) => {
    let answer: IncomingMessage | undefined;
    // Only a caller that asked for an event stream gets one unbounded as a whole: the SDK reads the
    // reply to any other request whole, whatever its Content-Type says.
    const wantsStream = (headers['accept'] ?? '').includes('text/event-stream');
    const request = (secure ? httpsRequest : httpRequest)(url, options, (incoming) => {
      answer = incoming;
      const stream = wantsStream && isEventStream(incoming);
      const refusal = stream ? undefined : refusedByLength(incoming, url, maxBodyBytes);
      if (refusal) {
        incoming.destroy();
        request.destroy();
        return reject(refusal);
      }
      resolve(toResponse(incoming, () => (stream ? incoming : boundedBody(incoming, url, maxBodyBytes))));
    });
    // An abort fails whatever is pending: the wait for the answer, or the reading of its body.
    const abort = () => {
      const reason = signal?.reason instanceof Error ? signal.reason : new Error(String(signal?.reason));
      answer?.destroy(reason);
      request.destroy(reason);
    };
    signal?.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', abort));
    request.once('error', (error: NodeJS.ErrnoException) => {
      // A kept connection the peer closed just as this call went out on it (its idle timeout, unannounced):
      // the call goes once more, on a new connection, as Node's documentation advises (`reusedSocket`).
      const closedUnderUs = again && answer === undefined && request.reusedSocket && CLOSED_UNDER_US.has(error.code ?? '');
      if (closedUnderUs && !signal?.aborted) resolve(send(url, init, { agents, maxBodyBytes }, false));
      else reject(error);
    });
    request.end(body);
  });
}

function toResponse(incoming: IncomingMessage, content: () => Readable): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, item);
  }
  const status = incoming.statusCode ?? 502;
  // Response refuses a body for these statuses.
  const noBody = status === 204 || status === 205 || status === 304;
  if (noBody) incoming.resume();
  const body = noBody
    ? null
    : (Readable.toWeb(isEventStream(incoming) ? wholeLines(content()) : content(), { strategy: BODY_STRATEGY }) as ReadableStream<Uint8Array>);
  return new Response(body, { status, statusText: incoming.statusMessage ?? '', headers });
}

function isEventStream(incoming: IncomingMessage): boolean {
  return (incoming.headers['content-type'] ?? '').startsWith('text/event-stream');
}

/**
 * The stream in pieces that end at a line end. The SDK's SSE parser appends each piece to what it
 * holds and searches the whole for a line end again, so a large event in socket-sized pieces costs
 * time quadratic in its size (a 3 MiB event: about 50 pieces, each a copy and a search of up to
 * 3 MiB). Whole lines cost it one search each. An unfinished line goes on once it passes
 * MAX_HELD_LINE_BYTES, so the parser still sees, and refuses, an endless one.
 */
function wholeLines(incoming: Readable): Readable {
  let held: Buffer[] = [];
  let heldBytes = 0;
  const release = (last: Buffer): Buffer => {
    const piece = held.length === 0 ? last : Buffer.concat([...held, last]);
    held = [];
    heldBytes = 0;
    return piece;
  };
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const end = chunk.lastIndexOf(0x0a) + 1;
      if (end === 0 && heldBytes + chunk.length < MAX_HELD_LINE_BYTES) {
        held.push(chunk);
        heldBytes += chunk.length;
        return done();
      }
      if (end === 0 || end === chunk.length) return done(null, release(chunk));
      const piece = release(chunk.subarray(0, end));
      held = [chunk.subarray(end)];
      heldBytes = chunk.length - end;
      done(null, piece);
    },
    flush(done) {
      done(null, held.length > 0 ? release(Buffer.alloc(0)) : undefined);
    },
  });
  // Either side's end or failure reaches the other: an abort or a dropped peer fails the reader, a cancel
  // frees the socket. Wired by hand: stream.pipeline makes and aborts an AbortController per call, so a
  // DOMException and its stack at every step of every task.
  incoming.once('error', (error) => lines.destroy(error));
  incoming.once('close', () => {
    if (!incoming.readableEnded) lines.destroy(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
  });
  lines.once('close', () => incoming.destroy());
  return incoming.pipe(lines);
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
