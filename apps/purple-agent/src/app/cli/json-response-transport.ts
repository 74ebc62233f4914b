// One MCP session of the task's server, over Streamable HTTP in its JSON-response mode only: each POST of
// JSON-RPC requests is answered by one `application/json` body holding their responses, a POST of only
// notifications or responses by 202. The official SDK's server (McpServer: the protocol, the tools, their
// input validation) runs on it unchanged. The SDK's own HTTP transport turns every Node request into a web
// Request and its answer back (about two thirds of a `tools/call`'s time in the purple agent); the task's
// server needs neither streams nor resumption, so this writes the answer to the Node response directly.
import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

type Id = string | number;

/** The requests of one POST that are not answered yet, and the answers so far, in order. */
interface OpenPost {
  response: ServerResponse;
  pending: Set<Id>;
  answers: JSONRPCMessage[];
  batch: boolean;
}

/** Whether `value` has the shape of a JSON-RPC 2.0 message (request, notification or response). */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message['jsonrpc'] !== '2.0') return false;
  if (typeof message['method'] === 'string') return true;
  const id = message['id'];
  return (typeof id === 'string' || typeof id === 'number') && ('result' in message || 'error' in message);
}

export class JsonResponseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly posts = new Map<Id, OpenPost>();
  private closed = false;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {
    // Nothing to open: requests come in through handle().
  }

  /**
   * Takes one POST's body, a message or a batch of them, already checked with isJsonRpcMessage; the answer
   * is written once the server has answered every request in it.
   */
  handle(body: JSONRPCMessage | JSONRPCMessage[], response: ServerResponse): void {
    const messages = Array.isArray(body) ? body : [body];
    const ids = messages.flatMap((message) => ('method' in message && 'id' in message && message.id !== undefined ? [message.id] : []));
    if (ids.length === 0) {
      response.writeHead(202, { 'mcp-session-id': this.sessionId }).end();
    } else {
      const post: OpenPost = { response, pending: new Set(ids), answers: [], batch: Array.isArray(body) };
      for (const id of ids) this.posts.set(id, post);
      // A client that goes away leaves nothing waiting here.
      response.once('close', () => ids.forEach((id) => this.posts.get(id) === post && this.posts.delete(id)));
    }
    for (const message of messages) this.onmessage?.(message);
  }

  /** The server's answer to a request goes into its POST's body; anything else it sends has no stream to go on here, and is dropped. */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message) || message.id === undefined) return;
    const post = this.posts.get(message.id);
    if (!post) return;
    this.posts.delete(message.id);
    post.pending.delete(message.id);
    post.answers.push(message);
    if (post.pending.size > 0) return;
    const payload = JSON.stringify(post.batch ? post.answers : post.answers[0]);
    post.response
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': this.sessionId, 'content-length': Buffer.byteLength(payload) })
      .end(payload);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const post of new Set(this.posts.values())) if (!post.response.headersSent) post.response.destroy();
    this.posts.clear();
    this.onclose?.();
  }
}
