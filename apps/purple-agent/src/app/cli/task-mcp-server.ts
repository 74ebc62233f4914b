// The task as an MCP server, the only tools a CLI agent is given: `shell` runs one command in the task's
// sandbox (through the green agent), `submit` hands in the answer. It answers on loopback only, and only
// requests bearing the task's own unguessable token; it ends with the task.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isJsonRpcMessage, JsonResponseTransport } from './json-response-transport';

/** What a tool answers the CLI: text, marked as an error when the call did not do what was asked. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
}

/** The task behind the tools. */
export interface TaskTools {
  /** Runs one command in the task's sandbox; the answer shows its returncode and output. */
  shell(command: string): Promise<ToolAnswer>;
  /** Takes the submission; an error answer says what to fix. */
  submit(): Promise<ToolAnswer>;
  /** Called once a request's answer has been written: what need not hold the answer back (a trajectory's write) goes here. */
  answered?(): void;
}

/** The name the CLIs know the server by: its tools show as `mcp__task__shell` and `mcp__task__submit`. */
export const TASK_MCP_NAME = 'task';
const PATH = '/mcp';
// A task's description and answers can be long; an MCP request from the CLI is a tool call, never large.
const MAX_REQUEST_BYTES = 1024 * 1024;
// A CLI opens one session, or a few (one per client it makes); more is not a CLI at work.
const MAX_SESSIONS = 8;

export const SHELL_TOOL_DESCRIPTION =
  "Run one bash command in the task's sandbox, where the project's source tree is, and see its returncode and output. " +
  'Each call is a new shell: cd and exports do not carry over; chain them with && when needed.';
export const SUBMIT_TOOL_DESCRIPTION =
  'Submit your answer once the file the task names holds it. This ends the task; an answer that does not hold up is returned with the reason.';

export class TaskMcpServer {
  /** The open sessions' transports, by session id. */
  private readonly sessions = new Map<string, JsonResponseTransport>();
  private readonly servers = new Set<McpServer>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly token: string,
  ) {}

  static async start(tools: TaskTools): Promise<TaskMcpServer> {
    const token = randomBytes(32).toString('base64url');
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const mcp = new TaskMcpServer(server, `http://127.0.0.1:${port}${PATH}`, token);
    server.on('request', (request, response) => void mcp.handle(request, response, tools));
    return mcp;
  }

  /** The header a CLI sends with each request. */
  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async close(): Promise<void> {
    await Promise.all([...this.servers].map((server) => server.close()));
    this.sessions.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  // One SDK server and transport per MCP session, as the SDK's stateful example serves: a session is what one
  // client (the CLI) opens with its `initialize`, so its calls reach a server made once, not one per request.
  private async handle(request: IncomingMessage, response: ServerResponse, tools: TaskTools): Promise<void> {
    if ((request.url ?? '').split('?')[0] !== PATH) return refuse(response, 404, `no MCP endpoint at ${request.url}`);
    if (!this.authorized(request.headers.authorization)) return refuse(response, 401, 'this MCP server answers only its task');
    // No stream of the server's own (GET): its tools only answer calls.
    if (request.method !== 'POST' && request.method !== 'DELETE') return refuse(response, 405, 'this MCP server takes POST and DELETE only');
    let body: unknown;
    try {
      body = request.method === 'POST' ? JSON.parse(await readBody(request)) : undefined;
    } catch (error) {
      return refuse(response, 400, `not a JSON-RPC request: ${(error as Error).message}`);
    }
    const sessionId = request.headers['mcp-session-id'];
    let transport: JsonResponseTransport | undefined;
    if (typeof sessionId === 'string') {
      transport = this.sessions.get(sessionId);
      if (!transport) return refuse(response, 404, `no session ${sessionId} here: it ended, initialize a new one`);
    } else if (request.method === 'POST' && isInitializeRequest(body)) {
      if (this.servers.size >= MAX_SESSIONS) return refuse(response, 429, `this MCP server holds ${MAX_SESSIONS} sessions at most`);
      transport = await this.open(tools);
    } else {
      return refuse(response, 400, 'no session: send initialize first');
    }
    if (request.method === 'DELETE') {
      await transport.close();
      response.writeHead(200).end();
      return;
    }
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length === 0 || !messages.every(isJsonRpcMessage)) return refuse(response, 400, 'not a JSON-RPC message, or a batch of them');
    // Once the answer is handed to the socket (within `end()`): what need not hold it back follows it.
    response.once('prefinish', () => tools.answered?.());
    transport.handle(Array.isArray(body) ? messages : messages[0], response);
  }

  /** A new session's transport, with a server of its own; the session is kept from its `initialize` to its DELETE or the task's end. */
  private async open(tools: TaskTools): Promise<JsonResponseTransport> {
    const transport = new JsonResponseTransport(randomUUID());
    const server = serverFor(tools);
    this.servers.add(server);
    this.sessions.set(transport.sessionId, transport);
    transport.onclose = () => {
      this.servers.delete(server);
      this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  private authorized(header: string | undefined): boolean {
    const expected = Buffer.from(this.authorization);
    const given = Buffer.from(header ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

function serverFor(tools: TaskTools): McpServer {
  const server = new McpServer({ name: TASK_MCP_NAME, version: '1.0.0' });
  server.registerTool(
    'shell',
    { description: SHELL_TOOL_DESCRIPTION, inputSchema: { command: z.string().describe('The bash command to run.') } },
    async ({ command }) => answer(await tools.shell(command)),
  );
  server.registerTool('submit', { description: SUBMIT_TOOL_DESCRIPTION }, async () => answer(await tools.submit()));
  return server;
}

function answer(reply: ToolAnswer): { content: { type: 'text'; text: string }[]; isError: boolean } {
  return { content: [{ type: 'text', text: reply.text }], isError: reply.isError };
}

function refuse(response: ServerResponse, status: number, message: string): void {
  const payload = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) });
  response.end(payload);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new Error(`the request passed ${MAX_REQUEST_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
