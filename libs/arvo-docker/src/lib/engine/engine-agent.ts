import type { Agent as HttpAgent, AgentOptions } from 'node:http';
import { inspect } from 'node:util';
import { idleBoundAgent } from '@arvo-rca/common';

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
 * once unused for IDLE_CONNECTION_MS (an agent at rest holds none).
 */
export function engineAgent(protocol: 'http' | 'https', options: AgentOptions = {}): HttpAgent {
  return shownByName(idleBoundAgent(protocol, options), `${protocol} engine agent`);
}
