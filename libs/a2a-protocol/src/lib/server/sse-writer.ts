import type { ServerResponse } from 'node:http';
import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from '@a2a-js/sdk';

export interface SseOptions {
  heartbeatMs: number;
  headers: Record<string, string>;
  /** The event that reports a failure of the stream to the client. */
  errorEvent: (error: unknown) => unknown;
}

export const SSE_HEARTBEAT = ': keep-alive\n\n';

/**
 * Writes events as Server-Sent Events until they end, the client goes away, or they fail (then an
 * `error` event says why). A comment line goes out whenever the stream has been silent for a
 * heartbeat interval, so that no client or proxy between the agents gives up on a long step.
 */
export async function writeSse(response: ServerResponse, events: AsyncIterable<unknown>, options: SseOptions): Promise<void> {
  response.writeHead(200, { ...SSE_HEADERS, ...options.headers });
  response.flushHeaders();
  const iterator = events[Symbol.asyncIterator]();
  const gone = new Promise<'gone'>((resolve) => response.once('close', () => resolve('gone')));
  let heartbeat = startHeartbeat(response, options.heartbeatMs);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), gone]);
      if (next === 'gone' || next.done) break;
      clearInterval(heartbeat);
      response.write(formatSSEEvent(next.value));
      heartbeat = startHeartbeat(response, options.heartbeatMs);
    }
  } catch (error) {
    if (writable(response)) response.write(formatSSEErrorEvent(options.errorEvent(error)));
  } finally {
    clearInterval(heartbeat);
    if (writable(response)) response.end();
    // Detaches from the task's events; the task itself runs on, and stays readable through tasks/get.
    void iterator.return?.(undefined)?.catch(() => undefined);
  }
}

function startHeartbeat(response: ServerResponse, intervalMs: number): NodeJS.Timeout {
  return setInterval(() => {
    if (writable(response)) response.write(SSE_HEARTBEAT);
  }, intervalMs);
}

function writable(response: ServerResponse): boolean {
  return !response.writableEnded && !response.destroyed;
}
