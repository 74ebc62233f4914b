// Test-only: waiting for something a real process does, with a bound that names what did not happen.

/** Polls `found` until it gives a value (not undefined), every `intervalMs`; fails naming `what` after `limitMs`. */
export async function waitUntil<T>(what: string, found: () => T | undefined | Promise<T | undefined>, limitMs = 120_000, intervalMs = 200): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
