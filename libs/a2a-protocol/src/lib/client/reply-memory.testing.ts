// Test-only child process (spawned by reply-bound.spec.ts with `node --import tsx`): calls a small peer to
// load what a call needs, then a huge one, and prints how far its resident memory grew during the second.
// Usage: reply-memory.testing.ts <small peer URL> <huge peer URL>
import { A2aClientFactory } from './a2a-client.factory';

async function main(): Promise<void> {
  const [small, huge] = process.argv.slice(2);
  const clients = new A2aClientFactory();
  await clients.peer(small).sendText('ctx', 'warm up', { deadlineMs: 30_000 });
  const before = process.memoryUsage().rss;
  const peakBefore = process.resourceUsage().maxRSS * 1024;
  // Sampled often, with the kernel's own peak beside it: a busy machine may delay a sample past a brief peak.
  let sampled = before;
  const sampler = setInterval(() => (sampled = Math.max(sampled, process.memoryUsage().rss)), 5);
  const outcome = await clients
    .peer(huge)
    .sendText('ctx', 'go', { deadlineMs: 120_000 })
    .then(
      (text) => ({ code: 'none', message: `answered ${text.length} characters` }),
      (error: Error & { code?: string }) => ({ code: error.code ?? 'none', message: error.message }),
    );
  clearInterval(sampler);
  const peakAfter = process.resourceUsage().maxRSS * 1024;
  const peak = Math.max(sampled, process.memoryUsage().rss, peakAfter > peakBefore ? peakAfter : 0);
  process.stdout.write(`${JSON.stringify({ ...outcome, growthBytes: peak - before })}\n`);
}

void main();
