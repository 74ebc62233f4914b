import { CodedError } from '@arvo-rca/common';

type PeerErrorCode =
  /** The call's deadline passed before the peer answered (or finished its stream). */
  | 'PEER_DEADLINE'
  /** The caller gave up (its own AbortSignal). */
  | 'PEER_ABORTED'
  /** No connection: refused, unknown host, unreachable. */
  | 'PEER_UNREACHABLE'
  /** The connection broke while the peer was answering. */
  | 'PEER_DISCONNECTED'
  /** The peer wants a (different) bearer token. */
  | 'PEER_UNAUTHORIZED'
  /** The peer answered, but with a JSON-RPC error or something that is not A2A. */
  | 'PEER_PROTOCOL'
  /** The peer ran the request and reports its task failed, was rejected or canceled. */
  | 'PEER_TASK_FAILED'
  /** The peer's reply (or one event of its stream) passed the bound on what is read of it; the rest was not read. */
  | 'PEER_TOO_LARGE';

/** A failed call to a peer agent; the message names the peer and what went wrong. */
export class A2aPeerError extends CodedError<PeerErrorCode> {}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);
const DISCONNECTED = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE', 'UND_ERR_SOCKET']);

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  cause?: unknown;
}

// Errors from Node's own modules may come from another realm (a test sandbox), so no `instanceof`.
function asErrorLike(value: unknown): ErrorLike | undefined {
  return typeof value === 'object' && value !== null ? (value as ErrorLike) : undefined;
}

/** The A2aPeerError somewhere in an error's cause chain: the SDK wraps a failed read of an error answer in its own Error. */
export function peerErrorIn(error: unknown): A2aPeerError | undefined {
  for (let current = error, depth = 0; current !== undefined && depth < 8; current = asErrorLike(current)?.cause, depth++) {
    if (current instanceof A2aPeerError) return current;
  }
  return undefined;
}

/** The system error code somewhere in an error's cause chain (`ECONNREFUSED`, ...). */
export function systemErrorCode(error: unknown): string | undefined {
  for (let current = asErrorLike(error), depth = 0; current && depth < 8; current = asErrorLike(current.cause), depth++) {
    if (typeof current.code === 'string') return current.code;
  }
  return undefined;
}

/** An error's message, with the system error code when the message does not name it. */
export function errorReason(error: unknown): string {
  const message = String(asErrorLike(error)?.message ?? error);
  const code = systemErrorCode(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** Which kind of failure a network error is, or undefined when it is none. */
export function networkFailure(error: unknown): 'PEER_UNREACHABLE' | 'PEER_DISCONNECTED' | undefined {
  const code = systemErrorCode(error);
  if (code && UNREACHABLE.has(code)) return 'PEER_UNREACHABLE';
  if (code && DISCONNECTED.has(code)) return 'PEER_DISCONNECTED';
  if (/aborted|socket hang up|terminated/i.test(String(asErrorLike(error)?.message))) return 'PEER_DISCONNECTED';
  return undefined;
}
