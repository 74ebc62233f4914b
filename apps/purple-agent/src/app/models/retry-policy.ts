import { retryWithBackoff, type RetryPolicy } from '@arvo-rca/common';
import { ModelCallError } from './model-errors';
import { SILENT_LOGGER, type ModelLogger } from './model';

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({ maxRetries: 6, baseDelayMs: 1000, maxDelayMs: 60_000 });

export interface RetryOptions {
  signal?: AbortSignal;
  logger?: ModelLogger;
  /** In [0, 1); replaceable so that tests are deterministic. */
  random?: () => number;
}

/**
 * Runs `call` until it succeeds, retrying retryable ModelCallErrors with exponential backoff and
 * jitter, or after the provider's retry-after when it gave one (capped at maxDelayMs).
 */
export function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy, options: RetryOptions = {}): Promise<T> {
  const { signal, logger = SILENT_LOGGER, random } = options;
  return retryWithBackoff(call, policy, {
    retryable: (error): error is ModelCallError => error instanceof ModelCallError && error.retryable,
    requestedDelayMs: (error) => error.retryAfterMs,
    onRetry: (error, retry, delayMs) => logger.warn(`${error.code}: ${error.message}; retry ${retry} of ${policy.maxRetries} in ${Math.round(delayMs)} ms`),
    gaveUp: (error, attempts) => new ModelCallError(error.code, `${error.message} (gave up after ${attempts} attempts)`),
    signal,
    aborted: () => new ModelCallError('MODEL_ABORTED', 'the model call was aborted while waiting to retry'),
    random,
  });
}
