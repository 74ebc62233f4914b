import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard, formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS, TaskState } from '@a2a-js/sdk';
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  type AgentExecutor,
  type ExecutionEventBus,
  type RequestContext,
} from '@a2a-js/sdk/server';
import { A2aClientFactory, AGENT_CARD_PATH, BoundedTaskStore, buildAgentCard, PRODUCT_VERSION, TaskEvents } from '@arvo-rca/a2a-protocol';

const CALL_DEADLINE_MS = 300_000;

/** One task the green agent handed over: its context, and a line back to the green agent on it. */
export interface SolverSession {
  contextId: string;
  description: string;
  /** The callback dialect: sends one message (`execute: ...`, `[TASK FINISHED]`) on the task's context; the green agent's reply. */
  send(text: string): Promise<string>;
  /** The reply dialect: answers the green agent's latest message with `text` (input-required); the green's next message. */
  reply(text: string): Promise<string>;
}

/** The call of a task that is open for reporting, and the handler waiting for the green's next message, if any. */
interface Conversation {
  events: TaskEvents;
  closeCall: () => void;
  waiting?: (answer: string) => void;
}

/** What the stand-in does with a task; the task's stream ends when it returns. */
export type SessionHandler = (session: SolverSession) => Promise<void>;

/**
 * A purple agent stand-in on loopback for the benchmark: the SDK's request handler and v1.0 JSON-RPC
 * transport over plain node:http (no Nest, so it runs under tsx, which emits no decorator metadata).
 * Each task from the green agent is given to the current handler; the green agent is reached with
 * the product's own A2A client, and tasks are kept in the product's own store, as the purple agent does.
 */
export class SolverStandIn {
  /** What the next tasks are handled with; each scenario sets its own. */
  handler: SessionHandler = async () => undefined;
  /** Where the green agent is; set once it listens. */
  greenUrl = '';
  /** Failures of handlers, which the scenario reports. */
  readonly failures: Error[] = [];
  private readonly clients = new A2aClientFactory();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<SolverStandIn> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const standIn = new SolverStandIn(server, url);
    standIn.serve();
    return standIn;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(): void {
    const built = buildAgentCard({
      name: 'bench solver stand-in',
      description: 'sends scripted commands to the green agent and measures them',
      version: PRODUCT_VERSION,
      url: this.url,
      skills: [{ id: 'bench', name: 'Bench', description: 'benchmark scenarios', tags: ['bench'], examples: [] }],
    });
    const card = { ...built, supportedInterfaces: built.supportedInterfaces.filter((i) => i.protocolVersion === '1.0') };
    const requests = new DefaultRequestHandler(card, new BoundedTaskStore(), this.executor());
    const transport = new JsonRpcTransportHandler(requests);
    this.server.on('request', (request, response) => {
      if (request.method === 'GET' && request.url === AGENT_CARD_PATH) return sendJson(response, 200, AgentCard.toJSON(card));
      if (request.method !== 'POST' || request.url !== '/') return sendJson(response, 404, { error: 'not found' });
      void answerJsonRpc(transport, request, response);
    });
  }

  private executor(): AgentExecutor {
    const conversations = new Map<string, Conversation>();
    const run = async (request: RequestContext, bus: ExecutionEventBus): Promise<void> => {
      const events = new TaskEvents(request, bus);
      const ongoing = conversations.get(request.contextId);
      if (ongoing?.waiting) return this.answer(ongoing, events);
      const conversation: Conversation = { events, closeCall: () => undefined };
      const callClosed = new Promise<void>((resolve) => (conversation.closeCall = resolve));
      conversations.set(request.contextId, conversation);
      events.start('bench stand-in working');
      const green = this.clients.peer(this.greenUrl);
      const session: SolverSession = {
        contextId: request.contextId,
        description: events.userText(),
        send: (text) => green.sendText(request.contextId, text, { deadlineMs: CALL_DEADLINE_MS }),
        reply: (text) =>
          new Promise<string>((resolve) => {
            conversation.waiting = resolve;
            conversation.events.askForInput(text);
            conversation.closeCall();
          }),
      };
      const handled = this.handler(session).then(
        () => conversation.events.end(TaskState.TASK_STATE_COMPLETED, 'done'),
        (error: Error) => {
          this.failures.push(error);
          conversation.events.end(TaskState.TASK_STATE_FAILED, error.message);
        },
      );
      void handled.finally(() => {
        conversations.delete(request.contextId);
        conversation.closeCall();
      });
      // The first call stays open until the handler replies for the first time, or is done.
      await callClosed;
    };
    return { execute: run, cancelTask: async (_taskId, bus) => bus.finished() };
  }

  /** The green's next message on a conversation: the handler's awaited answer, and the call it reports on from now. */
  private answer(conversation: Conversation, events: TaskEvents): Promise<void> {
    const deliver = conversation.waiting;
    conversation.waiting = undefined;
    conversation.events = events;
    const callClosed = new Promise<void>((resolve) => (conversation.closeCall = resolve));
    events.start();
    deliver?.(events.userText());
    return callClosed;
  }
}

async function answerJsonRpc(transport: JsonRpcTransportHandler, request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBody(request)) as Record<string, unknown>;
  } catch {
    return sendJson(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
  }
  const context = defaultServerCallContextBuilder({
    extensions: undefined,
    user: new UnauthenticatedUser(),
    headers: request.headers,
    requestedVersion: '1.0',
  });
  try {
    const result = await transport.handle(body, context);
    if (!(Symbol.asyncIterator in result)) return sendJson(response, 200, result);
    response.writeHead(200, SSE_HEADERS);
    for await (const event of result) response.write(formatSSEEvent(event));
    response.end();
  } catch (error) {
    const failure = { jsonrpc: '2.0', id: body['id'] ?? null, error: JsonRpcTransportHandler.mapToJSONRPCError(error) };
    if (response.headersSent) response.end(formatSSEErrorEvent(failure));
    else sendJson(response, 200, failure);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.once('error', reject);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}
