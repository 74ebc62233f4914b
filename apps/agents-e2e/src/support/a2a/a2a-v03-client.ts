import { randomUUID } from 'node:crypto';
import type { LegacyAgentCard } from '@arvo-rca/a2a-protocol';
import { parseSseBody } from '@arvo-rca/a2a-protocol/testing';

// The A2A 0.3 objects on the wire (the SDK's compat types, `@a2a-js/sdk/compat/v0_3`), as far as this client reads them.
export interface V03Part {
  kind: string;
  text?: string;
  data?: unknown;
}
export interface V03Message {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: V03Part[];
  contextId?: string;
  taskId?: string;
}
export interface V03Artifact {
  artifactId: string;
  name?: string;
  parts: V03Part[];
}
export interface V03Task {
  kind: 'task';
  id: string;
  contextId: string;
  status: { state: string; message?: V03Message };
  artifacts?: V03Artifact[];
  history?: V03Message[];
}
type V03StatusUpdate = { kind: 'status-update'; taskId: string; contextId: string; status: V03Task['status'] };
type V03ArtifactUpdate = { kind: 'artifact-update'; taskId: string; contextId: string; artifact: V03Artifact; append?: boolean };
type V03Event = V03Task | V03Message | V03StatusUpdate | V03ArtifactUpdate;

interface JsonRpcEnvelope {
  jsonrpc?: string;
  result?: V03Event;
  error?: { code: number; message: string };
}

/** One HTTP exchange of this client: the card's GET or a JSON-RPC method, where it went, and the status it got. */
export interface V03Exchange {
  method: string;
  url: string;
  status: number;
}

/**
 * A client that speaks A2A as the Python a2a-sdk 0.3 client does (`ClientFactory`, `BaseClient`, its JSON-RPC
 * transport), the client of AgentBeats' assessors and gateway:
 * - the card comes from `/.well-known/agent-card.json` of the base URL, asked with no `A2A-Version` header
 *   (`A2ACardResolver`), and is read in the 0.3 shape: calls go to its top-level `url` over its `preferredTransport`;
 * - a message is `{kind: 'message', role: 'user', messageId: <uuid4 hex>, parts: [{kind: 'text', text}]}`, with the
 *   context and task ids it continues;
 * - it streams (`message/stream`) only when both its config and the card's `capabilities.streaming` say so, else it
 *   calls `message/send` (`BaseClient.send_message`);
 * - an HTTP error status raises before the body is read (`response.raise_for_status()`), and so does a JSON-RPC
 *   error, in the body or in an SSE event (`A2AClientJSONRPCError`);
 * - the events of a stream build one task (`ClientTaskManager`): a status update replaces the task's status, an
 *   artifact update adds the artifact or, with `append`, adds its parts to the one of the same id.
 */
export class A2aV03Client {
  /** Every HTTP exchange, in order. */
  readonly exchanges: V03Exchange[] = [];

  private constructor(
    readonly card: LegacyAgentCard,
    private readonly streaming: boolean,
  ) {}

  static async connect(baseUrl: string, options: { streaming: boolean }): Promise<A2aV03Client> {
    const url = new URL('/.well-known/agent-card.json', baseUrl).toString();
    const response = await fetch(url);
    if (!response.ok) throw new Error(`agent card: HTTP ${response.status}`);
    const card = (await response.json()) as LegacyAgentCard;
    if (typeof card.url !== 'string') throw new Error(`the card has no 0.3 url: ${JSON.stringify(card)}`);
    const client = new A2aV03Client(card, options.streaming);
    client.exchanges.push({ method: 'GET', url, status: response.status });
    return client;
  }

  /** Sends `text` on the given context and task; the task as its events built it, or the agent's message. */
  async send(text: string, ids: { contextId?: string; taskId?: string } = {}): Promise<V03Task | V03Message> {
    const message: V03Message = { kind: 'message', role: 'user', messageId: randomUUID().replace(/-/g, ''), parts: [{ kind: 'text', text }], ...ids };
    const stream = this.streaming && this.card.capabilities.streaming === true;
    const requestHeaders: Record<string, string> = { 'content-type': 'application/json', ...(stream ? { accept: 'text/event-stream' } : {}) };
    const body = JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method: stream ? 'message/stream' : 'message/send', params: { message } });
    const response = await fetch(this.card.url, { method: 'POST', headers: requestHeaders, body, signal: AbortSignal.timeout(120_000) });
    this.exchanges.push({ method: stream ? 'message/stream' : 'message/send', url: this.card.url, status: response.status });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const envelopes = stream ? (parseSseBody(await response.text()).events as JsonRpcEnvelope[]) : [(await response.json()) as JsonRpcEnvelope];
    let task: V03Task | undefined;
    for (const envelope of envelopes) {
      if (envelope.error) throw new Error(`JSON-RPC error ${envelope.error.code}: ${envelope.error.message}`);
      const event = envelope.result;
      if (!event) throw new Error(`no result: ${JSON.stringify(envelope)}`);
      if (event.kind === 'message') return event;
      task = buildTask(task, event);
    }
    if (!task) throw new Error('the agent answered nothing');
    return task;
  }
}

function buildTask(task: V03Task | undefined, event: V03Task | V03StatusUpdate | V03ArtifactUpdate): V03Task {
  if (event.kind === 'task') return structuredClone(event);
  const current = task ?? { kind: 'task', id: event.taskId, contextId: event.contextId, status: { state: 'unknown' } };
  if (event.kind === 'status-update') return { ...current, status: event.status };
  const artifacts = [...(current.artifacts ?? [])];
  const at = artifacts.findIndex((artifact) => artifact.artifactId === event.artifact.artifactId);
  if (at < 0) artifacts.push(event.artifact);
  else artifacts[at] = event.append ? { ...artifacts[at], parts: [...artifacts[at].parts, ...event.artifact.parts] } : event.artifact;
  return { ...current, artifacts };
}

/** A message's or an artifact's parts as the original's `merge_parts` joins them: texts as they are, data as indented JSON. */
export function mergeV03Parts(parts: V03Part[]): string {
  return parts.flatMap((part) => (part.kind === 'text' ? [part.text ?? ''] : part.kind === 'data' ? [JSON.stringify(part.data, null, 2)] : [])).join('\n');
}
