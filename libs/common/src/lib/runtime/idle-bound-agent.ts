import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';

/**
 * How long a kept connection waits unused for the next call before it is closed: a second under the
 * shortest idle timeout common servers keep (Node's and uvicorn's 5 s; Fastify's is 72 s), the margin
 * Node's own agent leaves under a timeout a server announces, so that a peer seldom closes a connection
 * as it is being reused; a shorter one the peer announces (`Keep-Alive: timeout=…`) goes first. Long
 * enough to span an agent's think time between two steps (2 s in the bench), so that a task's calls
 * stay on one connection.
 */
export const IDLE_CONNECTION_MS = 4000;

/**
 * A connection pool that keeps each connection for the next call, but closes it once unused for
 * IDLE_CONNECTION_MS (Node keeps an unused one as long as the peer's Keep-Alive hint says, or for ever
 * without one); a pool at rest holds none.
 */
export function idleBoundAgent(protocol: 'http' | 'https', options: AgentOptions = {}): HttpAgent {
  return protocol === 'https' ? new IdleBoundHttpsAgent({ ...options, keepAlive: true }) : new IdleBoundHttpAgent({ ...options, keepAlive: true });
}

// A free socket's timeout closes it (the agent destroys a free socket that times out); one in use ignores
// it, and the timeout stays on the socket when it is reused.
function boundIdle(socket: Duplex & { timeout?: number; setTimeout?: (ms: number) => unknown }): void {
  if (socket.timeout === undefined || socket.timeout === 0 || socket.timeout > IDLE_CONNECTION_MS) socket.setTimeout?.(IDLE_CONNECTION_MS);
}

class IdleBoundHttpAgent extends HttpAgent {
  override keepSocketAlive(socket: Duplex): boolean {
    const kept = super.keepSocketAlive(socket) as unknown as boolean;
    boundIdle(socket);
    return kept;
  }
}

class IdleBoundHttpsAgent extends HttpsAgent {
  override keepSocketAlive(socket: Duplex): boolean {
    const kept = super.keepSocketAlive(socket) as unknown as boolean;
    boundIdle(socket);
    return kept;
  }
}
