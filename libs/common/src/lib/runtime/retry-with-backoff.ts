/** How often to try again and how long to wait in between. */
export interface RetryPolicy {
  /** Attempts after the first; 0 disables retrying. */
  maxRetries: number;
  /** The first retry's step; each further retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * How a wait is drawn from its step: 'equal' (the default) waits at least half of it, so that retries
   * never bunch up at zero; 'full' waits anywhere from nothing to all of it.
   */
  jitter?: 'equal' | 'full';
}

/** What the caller knows about its failures; `E` is the kind of failure worth another attempt. */
export interface RetryHooks<E> {
  /** Whether a failure is worth another attempt; any other failure is thrown at once. */
  retryable: ((error: unknown) => error is E) | ((error: unknown) => boolean);
  /** A wait the failure asks for itself (a Retry-After), taken instead of the backoff, capped at maxDelayMs. */
  requestedDelayMs?: (error: E) => number | undefined;
  /** Told before each wait, to log it; `retry` counts from 1. */
  onRetry?: (error: E, retry: number, delayMs: number) => void;
  /** The error to throw once the retries run out; the last failure itself unless given. */
  gaveUp?: (error: E, attempts: number) => unknown;
  /** Ends a wait at once; a failure that comes after it fired is thrown as it is. */
  signal?: AbortSignal;
  /** The error to throw when the signal ends a wait; the signal's reason unless given. */
  aborted?: () => unknown;
  /** In [0, 1); replaceable so that tests are deterministic. */
  random?: () => number;
}

/** Runs `call` until it succeeds, retrying the failures `hooks.retryable` accepts with exponential backoff. */
export async function retryWithBackoff<T, E = unknown>(call: () => Promise<T>, policy: RetryPolicy, hooks: RetryHooks<E>): Promise<T> {
  const { signal, random = Math.random } = hooks;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (!hooks.retryable(error) || signal?.aborted) throw error;
      const failure = error as E;
      if (attempt >= policy.maxRetries) throw hooks.gaveUp ? hooks.gaveUp(failure, attempt + 1) : failure;
      const requested = hooks.requestedDelayMs?.(failure);
      const delay = requested === undefined ? backoffDelayMs(attempt, policy, random) : Math.min(requested, policy.maxDelayMs);
      hooks.onRetry?.(failure, attempt + 1, delay);
      await sleep(delay, signal, hooks.aborted);
    }
  }
}

function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return policy.jitter === 'full' ? random() * step : step / 2 + random() * (step / 2);
}

function sleep(ms: number, signal: AbortSignal | undefined, abortError = () => signal?.reason): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(abortError());
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
