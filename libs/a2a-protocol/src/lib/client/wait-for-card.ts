import { AGENT_CARD_PATH } from '../agent-card';

interface CardWaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Why waiting is pointless now (the agent's process exited), or undefined while it may still come up. */
  gone?: () => string | undefined;
}

/** Polls an agent until it serves its card (v1.0 shape), and returns the card; for launchers and tests. */
export async function waitForAgentCard(url: string, options: CardWaitOptions = {}): Promise<Record<string, unknown>> {
  const { timeoutMs = 30_000, intervalMs = 200, gone } = options;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const reason = gone?.();
    if (reason) throw new Error(`the agent at ${url} will not serve its card: ${reason}`);
    const card = await fetch(new URL(AGENT_CARD_PATH, url), { signal: AbortSignal.timeout(2000), headers: { 'A2A-Version': '1.0' } }).then(
      async (response) => (response.ok ? ((await response.json()) as Record<string, unknown>) : undefined),
      () => undefined, // not listening yet
    );
    if (card) return card;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
  throw new Error(`no agent card at ${url} within ${timeoutMs / 1000}s`);
}
