import { Agent as HttpAgent, type AgentOptions } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Duplex } from 'node:stream';
import { inspect } from 'node:util';

/** How long a connection to the engine waits unused for the next call before it is closed (Node's global agent: 5 s). */
export const ENGINE_IDLE_CONNECTION_MS = 1000;

/**
 * What an engine's connection pool shows when it is inspected: its name. The modem inspects each request's
 * options in full (`util.inspect(options, { showHidden: true, depth: null })`, for its debug log, whether
 * the log is on or not), and the options hold the agent: inspected, a pool with a hundred sockets open is
 * every field of every socket, its parser and its request. At 32 tasks at once that took the green agent
 * 34 s of CPU in a 2-minute run, half of all its work.
 */
export function shownByName<T extends HttpAgent>(agent: T, name: string): T {
  Object.defineProperty(agent, inspect.custom, { value: () => `[${name}]`, enumerable: false });
  return agent;
}

/**
 * The pool of an engine reached over a local socket or tcp: connections kept for the next call, each closed
 * once unused for ENGINE_IDLE_CONNECTION_MS (an agent at rest holds none).
 */
export function engineAgent(protocol: 'http' | 'https', options: AgentOptions = {}): HttpAgent {
  const agent = protocol === 'https' ? new IdleBoundHttpsAgent({ ...options, keepAlive: true }) : new IdleBoundHttpAgent({ ...options, keepAlive: true });
  return shownByName(agent, `${protocol} engine agent`);
}

// A free socket's timeout closes it (the agent destroys a free socket that times out); one in use ignores it.
function boundIdle(socket: Duplex & { timeout?: number; setTimeout?: (ms: number) => unknown }): void {
  if (socket.timeout === undefined || socket.timeout === 0 || socket.timeout > ENGINE_IDLE_CONNECTION_MS) socket.setTimeout?.(ENGINE_IDLE_CONNECTION_MS);
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
