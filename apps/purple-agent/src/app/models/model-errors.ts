import { CodedError } from '@arvo-rca/common';

export type ModelErrorCode =
  | 'MODEL_RATE_LIMITED'
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_CONNECTION'
  | 'MODEL_TIMEOUT'
  | 'MODEL_AUTH'
  | 'MODEL_BAD_REQUEST'
  | 'MODEL_ABORTED'
  | 'MODEL_SCRIPT_EXHAUSTED'
  | 'MODEL_CONFIG';

/** A failed model call, in provider-neutral terms: whether to retry, and after how long. */
export class ModelCallError extends CodedError<ModelErrorCode> {
  constructor(
    code: ModelErrorCode,
    message: string,
    readonly retryable = false,
    readonly retryAfterMs?: number,
  ) {
    super(code, message);
  }
}

/**
 * Classifies an HTTP error answer: 429, 408, 409 and 5xx are worth retrying; auth and bad requests
 * are not, and their message is the provider's own.
 */
export function httpModelError(provider: string, status: number, providerMessage: string, headers?: Headers): ModelCallError {
  const message = `${provider} answered HTTP ${status}: ${providerMessage}`;
  const retryAfterMs = parseRetryAfter(headers);
  if (status === 429) return new ModelCallError('MODEL_RATE_LIMITED', message, true, retryAfterMs);
  if (status === 408 || status === 409 || status >= 500) return new ModelCallError('MODEL_UNAVAILABLE', message, true, retryAfterMs);
  if (status === 401 || status === 403) return new ModelCallError('MODEL_AUTH', message);
  return new ModelCallError('MODEL_BAD_REQUEST', message);
}

/** `retry-after-ms`, or `retry-after` in seconds or as an HTTP date. */
export function parseRetryAfter(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
