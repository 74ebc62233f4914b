import type { IncomingMessage } from 'node:http';
import { formatBytes } from '@arvo-rca/common';
import { A2aPeerError } from './peer-error';

/** Why a reply was refused: where it came from, the bound, and how much of it was seen. */
export function replyTooLarge(url: URL, maxBytes: number, seen: string): A2aPeerError {
  const bound = `${formatBytes(maxBytes)} (A2A_MAX_BODY_BYTES, ${maxBytes} bytes)`;
  return new A2aPeerError('PEER_TOO_LARGE', `the peer's reply at ${url.href} passed ${bound}: ${seen}; the rest was not read`);
}

/** The refusal of a reply whose Content-Length is above the bound, or undefined when it declares none above it. */
export function refusedByLength(incoming: IncomingMessage, url: URL, maxBytes: number): A2aPeerError | undefined {
  const declared = Number(incoming.headers['content-length']);
  if (!Number.isFinite(declared) || declared <= maxBytes) return undefined;
  return replyTooLarge(url, maxBytes, `its Content-Length declares ${formatBytes(declared)} (${declared} bytes)`);
}

/**
 * The body, counted as it arrives and destroyed the moment it passes `maxBytes`, socket and all, so
 * that nothing more is read. A peer's reply without a Content-Length (chunked) can otherwise be of any
 * size, and the SDK reads a non-streamed one whole (`text()`, `json()`). A listener rather than a
 * Transform in between: cancelling the web stream over one (a 401's short body) threw "Controller is
 * already closed" out of Node's adapter.
 */
export function boundedBody(incoming: IncomingMessage, url: URL, maxBytes: number): IncomingMessage {
  let seenBytes = 0;
  const count = (chunk: Buffer): void => {
    seenBytes += chunk.length;
    if (seenBytes <= maxBytes) return;
    incoming.off('data', count);
    incoming.destroy(replyTooLarge(url, maxBytes, `${seenBytes} bytes had arrived and more were coming`));
  };
  return incoming.on('data', count);
}
