import { flakyCall } from '@arvo-rca/common/testing';
import { ModelCallError, parseRetryAfter } from './model-errors';
import { withRetries } from './retry-policy';

const POLICY = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 50 };

describe('withRetries', () => {
  it('retries retryable failures and returns the first success', async () => {
    const { call, calls: attempts } = flakyCall([new ModelCallError('MODEL_RATE_LIMITED', '429', true), new ModelCallError('MODEL_CONNECTION', 'reset', true)]);

    await expect(withRetries(call, POLICY)).resolves.toBe('ok');
    expect(attempts()).toBe(3);
  });

  it('gives up after maxRetries, saying how many attempts it made', async () => {
    const busy = new ModelCallError('MODEL_UNAVAILABLE', 'HTTP 503', true);
    const { call } = flakyCall([busy, busy, busy, busy]);

    await expect(withRetries(call, POLICY)).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', message: 'HTTP 503 (gave up after 3 attempts)' });
  });

  it('never retries auth or bad-request failures', async () => {
    const { call, calls: attempts } = flakyCall([new ModelCallError('MODEL_AUTH', 'HTTP 401')]);

    await expect(withRetries(call, POLICY)).rejects.toMatchObject({ code: 'MODEL_AUTH' });
    expect(attempts()).toBe(1);
  });

  it('waits the retry-after the provider asked for, capped at the longest delay', async () => {
    const { call } = flakyCall([new ModelCallError('MODEL_RATE_LIMITED', '429', true, 200)]);
    const started = Date.now();

    await withRetries(call, { ...POLICY, maxDelayMs: 10_000 });
    const waited = Date.now() - started;
    await withRetries(flakyCall([new ModelCallError('MODEL_RATE_LIMITED', '429', true, 60_000)]).call, POLICY);

    expect(waited).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started - waited).toBeLessThan(1000);
  });

  it('stops waiting when the call is aborted', async () => {
    const { call } = flakyCall([new ModelCallError('MODEL_RATE_LIMITED', '429', true, 5000)]);

    await expect(withRetries(call, { ...POLICY, maxDelayMs: 10_000 }, { signal: AbortSignal.timeout(50) })).rejects.toMatchObject({ code: 'MODEL_ABORTED' });
  });
});

describe('parseRetryAfter', () => {
  it('reads retry-after-ms, retry-after in seconds, and retry-after as an HTTP date', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6000);
    expect(parseRetryAfter(new Headers({}))).toBeUndefined();
  });
});
