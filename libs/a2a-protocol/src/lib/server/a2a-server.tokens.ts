// Injection tokens of the A2A server glue.

/** The card the agent serves and its request handler validates against (the app's card, plus auth). */
export const AGENT_CARD = Symbol('AGENT_CARD');
/** The card as the app built it, before the module adds what the deployment requires (auth). */
export const APP_AGENT_CARD = Symbol('APP_AGENT_CARD');
/** The app's AgentExecutor: the agent's logic behind the JSON-RPC endpoint. */
export const A2A_EXECUTOR = Symbol('A2A_EXECUTOR');
/** {@link A2aServerOptions} as the app's factory gives them, before they become {@link A2aServerSettings}. */
export const A2A_SERVER_OPTIONS = Symbol('A2A_SERVER_OPTIONS');
/** {@link A2aServerSettings}. */
export const A2A_SERVER_SETTINGS = Symbol('A2A_SERVER_SETTINGS');

// Streams stay well under the 15 s idle limits of proxies and of the protocol's clients.
export const DEFAULT_HEARTBEAT_MS = 10_000;

// Requests carry task descriptions with crash reports, commands and assessment requests: kilobytes. The
// large things (command outputs, Results) travel in responses: a peer's reply our client reads is bounded
// by the same, unless it is an event stream (bounded per event).
export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** What a deployment sets of the server, each from the app's configuration; what is left out takes its default. */
export interface A2aServerOptions {
  /** The shared secret JSON-RPC calls must carry, and this agent sends to its peers; none when empty. */
  token?: string;
  /** The largest JSON-RPC request body read (default 8 MiB). */
  maxBodyBytes?: number;
  /** Interval of the SSE heartbeat comments (default 10 s). */
  heartbeatMs?: number;
}

export interface A2aServerSettings {
  /** The shared secret (`A2A_TOKEN`) JSON-RPC calls must carry, and this agent sends to its peers. */
  token: string | undefined;
  /** How long a stream may stay silent before a comment line keeps it alive. */
  heartbeatMs: number;
  /** The largest JSON-RPC request body read (`A2A_MAX_BODY_BYTES`), and the largest peer's reply that is not an event stream; a larger one is refused unread. */
  maxBodyBytes: number;
}
