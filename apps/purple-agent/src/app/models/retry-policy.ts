import { ModelCallError } from './model-errors';
import { SILENT_LOGGER, type ModelLogger } from './model';

export interface RetryPolicy {
  /** Attempts after the first; 0 disables retrying. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

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
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy, options: RetryOptions = {}): Promise<T> {
  const { signal, logger = SILENT_LOGGER, random = Math.random } = options;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ModelCallError) || !error.retryable || signal?.aborted) throw error;
      if (attempt >= policy.maxRetries) {
        throw new ModelCallError(error.code, `${error.message} (gave up after ${attempt + 1} attempts)`);
      }
      const delay = retryDelay(error, attempt, policy, random);
      logger.warn(`${error.code}: ${error.message}; retry ${attempt + 1} of ${policy.maxRetries} in ${Math.round(delay)} ms`);
      await sleep(delay, signal);
    }
  }
}

// Equal jitter: at least half the exponential step, so that retries never bunch up at zero.
function retryDelay(error: ModelCallError, attempt: number, policy: RetryPolicy, random: () => number): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxDelayMs);
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return step / 2 + random() * (step / 2);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(new ModelCallError('MODEL_ABORTED', 'the model call was aborted while waiting to retry'));
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
