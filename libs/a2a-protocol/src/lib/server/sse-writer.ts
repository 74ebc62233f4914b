import type { ServerResponse } from 'node:http';
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';
import type { StreamPace } from './stream-pace';

export interface SseOptions {
  heartbeatMs: number;
  headers: Record<string, string>;
  /** The event that reports a failure of the stream to the client. */
  errorEvent: (error: unknown) => unknown;
  /** Told of each event the socket has taken, and of the stream's end. */
  pace?: StreamPace;
}

export const SSE_HEARTBEAT = ': keep-alive\n\n';

// Why a stream stops, for its own wait only (the reason is never read). One for all: a plain abort() makes a
// DOMException and its stack at every stream's end, at every step of a task.
const CLIENT_GONE = new Error('the client closed the stream');

/**
 * Writes events as Server-Sent Events until they end, the client goes away, or they fail (then an
 * `error` event says why). A comment line goes out whenever the stream has been silent for a
 * heartbeat interval, so that no client or proxy between the agents gives up on a long step.
 * The next event is taken only once the socket has room for it: a client that reads slowly holds the
 * events back where they were published, and through `pace`, their producer.
 */
export async function writeSse(response: ServerResponse, events: AsyncIterable<unknown>, options: SseOptions): Promise<void> {
  response.writeHead(200, { ...SSE_HEADERS, ...options.headers });
  response.flushHeaders();
  const iterator = events[Symbol.asyncIterator]();
  const gone = new AbortController();
  response.once('close', () => gone.abort(CLIENT_GONE));
  let heartbeat = startHeartbeat(response, options.heartbeatMs);
  try {
    for (;;) {
      const next = await unlessGone(iterator.next(), gone.signal);
      if (next === 'gone' || next.done) break;
      clearInterval(heartbeat);
      const room = response.write(formatSSEEvent(next.value));
      heartbeat = startHeartbeat(response, options.heartbeatMs);
      if (!room && (await unlessGone(drained(response), gone.signal)) === 'gone') break;
      options.pace?.onWritten();
    }
  } catch (error) {
    if (writable(response)) response.write(formatSSEErrorEvent(options.errorEvent(error)));
  } finally {
    options.pace?.end();
    clearInterval(heartbeat);
    if (writable(response)) response.end();
    // Detaches from the task's events; the task itself runs on, and stays readable through tasks/get.
    void iterator.return?.(undefined)?.catch(() => undefined);
  }
}

/**
 * What `work` gives, or 'gone' once `gone` aborts first. Not Promise.race against one promise of the
 * client's going: each race would leave a reaction on it that holds the race's result, every event of
 * the stream, until the client went.
 */
function unlessGone<T>(work: Promise<T>, gone: AbortSignal): Promise<T | 'gone'> {
  if (gone.aborted) return Promise.resolve('gone');
  return new Promise((resolve, reject) => {
    const onGone = (): void => resolve('gone');
    gone.addEventListener('abort', onGone, { once: true });
    work.then(
      (value) => {
        gone.removeEventListener('abort', onGone);
        resolve(value);
      },
      (error: unknown) => {
        gone.removeEventListener('abort', onGone);
        reject(error);
      },
    );
  });
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    response.once('drain', resolve);
  });
}

function startHeartbeat(response: ServerResponse, intervalMs: number): NodeJS.Timeout {
  return setInterval(() => {
    if (writable(response)) response.write(SSE_HEARTBEAT);
  }, intervalMs);
}

function writable(response: ServerResponse): boolean {
  return !response.writableEnded && !response.destroyed;
}
