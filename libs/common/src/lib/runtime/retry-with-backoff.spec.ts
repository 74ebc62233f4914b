import { flakyCall } from './flaky-call.testing';
import { retryWithBackoff, type RetryHooks, type RetryPolicy } from './retry-with-backoff';

class Busy extends Error {
  constructor(readonly waitMs?: number) {
    super('busy');
  }
}

const isBusy = (error: unknown): error is Busy => error instanceof Busy;
const TINY: RetryPolicy = { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 4 };

/** Runs a call that fails until the retries run out and returns the waits it was told about. */
async function waitsOf(policy: RetryPolicy, hooks: Omit<RetryHooks<Busy>, 'retryable' | 'onRetry'> = {}): Promise<number[]> {
  const waits: number[] = [];
  const { call } = flakyCall(Array.from({ length: policy.maxRetries + 1 }, () => new Busy()));
  const onRetry = (_error: Busy, _retry: number, delayMs: number) => waits.push(delayMs);
  await retryWithBackoff(call, policy, { retryable: isBusy, onRetry, ...hooks }).catch(() => undefined);
  return waits;
}

describe('retryWithBackoff', () => {
  it('retries retryable failures and returns the first success', async () => {
    const retries: number[] = [];
    const { call, calls } = flakyCall([new Busy(), new Busy()]);

    const onRetry = (_error: Busy, retry: number) => retries.push(retry);

    await expect(retryWithBackoff(call, TINY, { retryable: isBusy, onRetry })).resolves.toBe('ok');
    expect(calls()).toBe(3);
    expect(retries).toEqual([1, 2]);
  });

  it('throws the last failure after maxRetries retries, or what gaveUp makes of it', async () => {
    const last = new Busy();
    const failing = () => flakyCall([new Busy(), new Busy(), new Busy(), last, new Busy()]);
    const { call, calls } = failing();
    const gaveUp = (error: Busy, attempts: number) => new Error(`${error.message} ${attempts} times`);

    await expect(retryWithBackoff(call, TINY, { retryable: isBusy })).rejects.toBe(last);
    expect(calls()).toBe(4);
    await expect(retryWithBackoff(failing().call, TINY, { retryable: isBusy, gaveUp })).rejects.toThrow('busy 4 times');
  });

  it('throws a failure that is not retryable at once, and never retries when maxRetries is 0', async () => {
    const fatal = new Error('fatal');
    const { call, calls } = flakyCall([fatal]);
    const once = flakyCall([new Busy()]);

    await expect(retryWithBackoff(call, TINY, { retryable: isBusy, gaveUp: () => new Error('gave up') })).rejects.toBe(fatal);
    expect(calls()).toBe(1);
    await expect(retryWithBackoff(once.call, { ...TINY, maxRetries: 0 }, { retryable: isBusy })).rejects.toBeInstanceOf(Busy);
    expect(once.calls()).toBe(1);
  });

  it('doubles the step up to maxDelayMs and waits at least half of it with equal jitter', async () => {
    const policy = { maxRetries: 4, baseDelayMs: 2, maxDelayMs: 8 };

    expect(await waitsOf(policy, { random: () => 0 })).toEqual([1, 2, 4, 4]);
    expect(await waitsOf(policy, { random: () => 0.5 })).toEqual([1.5, 3, 6, 6]);
    expect(await waitsOf({ ...policy, jitter: 'equal' }, { random: () => 0.75 })).toEqual([1.75, 3.5, 7, 7]);
  });

  it('waits anywhere from nothing to the whole step with full jitter', async () => {
    const policy: RetryPolicy = { maxRetries: 4, baseDelayMs: 2, maxDelayMs: 8, jitter: 'full' };

    expect(await waitsOf(policy, { random: () => 0 })).toEqual([0, 0, 0, 0]);
    expect(await waitsOf(policy, { random: () => 0.5 })).toEqual([1, 2, 4, 4]);
  });

  it('waits what the failure asks for instead of the backoff, capped at maxDelayMs', async () => {
    const waits: number[] = [];
    const hooks: RetryHooks<Busy> = {
      retryable: isBusy,
      requestedDelayMs: (error) => error.waitMs,
      onRetry: (_error, _retry, delayMs) => waits.push(delayMs),
      random: () => 0,
    };
    const { call } = flakyCall([new Busy(40), new Busy(60_000), new Busy()]);
    const started = Date.now();

    await retryWithBackoff(call, { maxRetries: 3, baseDelayMs: 2, maxDelayMs: 50 }, hooks);

    // The third failure asks for nothing, so it gets the third step (8 ms) with equal jitter.
    expect(waits).toEqual([40, 50, 4]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(85);
  });

  it('stops waiting when the signal aborts, with the aborted error or else the signal’s reason', async () => {
    const slow: RetryPolicy = { maxRetries: 1, baseDelayMs: 10_000, maxDelayMs: 10_000 };
    const started = Date.now();

    const aborted = () => new Error('aborted');

    await expect(retryWithBackoff(flakyCall([new Busy()]).call, slow, { retryable: isBusy, signal: AbortSignal.timeout(20), aborted })).rejects.toThrow(
      'aborted',
    );
    await expect(retryWithBackoff(flakyCall([new Busy()]).call, slow, { retryable: isBusy, signal: AbortSignal.timeout(20) })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('throws a failure that comes after the signal fired as it is, without retrying', async () => {
    const controller = new AbortController();
    const failure = new Busy();
    const call = async (): Promise<string> => {
      controller.abort();
      throw failure;
    };

    const gaveUp = () => new Error('gave up');

    await expect(retryWithBackoff(call, TINY, { retryable: isBusy, signal: controller.signal, gaveUp })).rejects.toBe(failure);
  });
});
