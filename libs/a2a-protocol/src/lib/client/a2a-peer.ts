import { randomUUID } from 'node:crypto';
import { Role, type Message, type SendMessageRequest } from '@a2a-js/sdk';
import type { Client, ClientFactory } from '@a2a-js/sdk/client';
import { AGENT_CARD_PATH, withTrailingSlash } from '../agent-card';
import { readPeerCard, type PeerCard } from '../vocabulary/peer-card';
import { formatBytes } from '@arvo-rca/common';
import { A2aPeerError, errorReason, networkFailure, peerErrorIn } from './peer-error';
import { isUnsuccessfulState, messageText, taskState, taskText, toPeerEvent, type PeerEvent, type PeerTaskState } from './peer-events';

interface PeerCallOptions {
  /** Upper bound of the whole call in milliseconds, card lookup and stream included; 0 = none. */
  deadlineMs?: number;
  /** Lets the caller give up early (a task that ends, a shutdown). */
  signal?: AbortSignal;
  /** The peer's task this message continues (one waiting in `input-required`); none starts a new task on the context. */
  taskId?: string;
}

// How the SDK's SSE parser refuses a line or an event over its bound (4 MiB): a plain Error.
const SSE_TOO_LARGE = /^SSE (?:line|event data) exceeded the maximum allowed size of (\d+) bytes/;

interface CallScope {
  signal: AbortSignal | undefined;
  explain: (error: unknown) => A2aPeerError;
  /** The call is over: its deadline's timer goes (AbortSignal.timeout's stayed until it fired: a task's whole time, per turn). */
  end: () => void;
}

/**
 * Another agent, reached over A2A through the SDK's client (v1.0, or v0.3 when the peer's card says
 * so). Its card is looked up once, on the first call; every call has its own deadline.
 */
export class A2aPeer {
  private client: Client | undefined;

  constructor(
    /** The peer's base URL, as configured (with or without a trailing slash). */
    readonly url: string,
    private readonly clients: ClientFactory,
    private readonly http: typeof fetch,
  ) {}

  /** Sends one text message (`message/send`) and returns the text of the peer's answer. */
  async sendText(contextId: string, text: string, options: PeerCallOptions = {}): Promise<string> {
    const scope = this.scope(options, 'answer');
    try {
      const client = await this.connect(scope.signal);
      const result = await client.sendMessage(request(contextId, text, options.taskId), { signal: scope.signal });
      if ('messageId' in result) return messageText(result);
      const state = taskState(result);
      if (isUnsuccessfulState(state))
        throw new A2aPeerError('PEER_TASK_FAILED', `${this.describe()}: task ${state}: ${taskText(result) || '(no reason given)'}`);
      return taskText(result);
    } catch (error) {
      throw scope.explain(error);
    } finally {
      scope.end();
    }
  }

  /** Sends one text message with `message/stream` and yields what the peer reports until it is done. */
  async *streamText(contextId: string, text: string, options: PeerCallOptions = {}): AsyncGenerator<PeerEvent> {
    const scope = this.scope(options, 'finish its stream');
    try {
      const client = await this.connect(scope.signal);
      for await (const response of client.sendMessageStream(request(contextId, text, options.taskId), { signal: scope.signal })) {
        const event = toPeerEvent(response);
        if (event) yield event;
      }
    } catch (error) {
      throw scope.explain(error);
    } finally {
      scope.end();
    }
  }

  /** Cancels one of the peer's tasks (`tasks/cancel`); its state afterwards. */
  async cancel(taskId: string, options: PeerCallOptions = {}): Promise<PeerTaskState> {
    const scope = this.scope(options, 'cancel its task');
    try {
      const client = await this.connect(scope.signal);
      return taskState(await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: scope.signal }));
    } catch (error) {
      throw scope.explain(error);
    } finally {
      scope.end();
    }
  }

  /** Who the peer's card says it is now (read afresh: the agent behind a URL may have been restarted as another). */
  async card(options: PeerCallOptions = {}): Promise<PeerCard> {
    return readPeerCard(await this.cardDocument(options));
  }

  /** The peer's card as it serves it, read afresh: what its skills declare, beyond who it is. */
  async cardDocument(options: PeerCallOptions = {}): Promise<unknown> {
    const scope = this.scope(options, 'show its card');
    try {
      return await this.fetchCard(scope.signal);
    } catch (error) {
      throw scope.explain(error);
    } finally {
      scope.end();
    }
  }

  private async connect(signal: AbortSignal | undefined): Promise<Client> {
    if (this.client) return this.client;
    const card = await this.fetchCard(signal);
    this.client = await this.clients.createFromAgentCard(card as Parameters<ClientFactory['createFromAgentCard']>[0]);
    return this.client;
  }

  private async fetchCard(signal: AbortSignal | undefined): Promise<unknown> {
    const cardUrl = new URL(AGENT_CARD_PATH.slice(1), withTrailingSlash(this.url));
    const response = await this.http(cardUrl, { headers: { 'A2A-Version': '1.0' }, signal });
    if (!response.ok) throw new A2aPeerError('PEER_PROTOCOL', `${this.describe()}: no agent card at ${cardUrl} (HTTP ${response.status})`);
    const card: unknown = await response.json().catch((error: unknown) => {
      if (error instanceof A2aPeerError) throw error;
      throw new A2aPeerError('PEER_PROTOCOL', `${this.describe()}: the agent card at ${cardUrl} is not JSON`, { cause: error });
    });
    return card;
  }

  private scope(options: PeerCallOptions, what: string): CallScope {
    const timer = options.deadlineMs ? new AbortController() : undefined;
    const timeout = timer && setTimeout(() => timer.abort(new DOMException('the call deadline passed', 'TimeoutError')), options.deadlineMs).unref();
    const deadline = timer?.signal;
    const signals = [deadline, options.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    const explain = (error: unknown): A2aPeerError => {
      const peerError = peerErrorIn(error);
      if (peerError) return peerError;
      if (deadline?.aborted)
        return new A2aPeerError('PEER_DEADLINE', `${this.describe()} did not ${what} within ${seconds(options.deadlineMs)}`, { cause: error });
      if (options.signal?.aborted) return new A2aPeerError('PEER_ABORTED', `the call to ${this.describe()} was abandoned`, { cause: error });
      const eventBound = SSE_TOO_LARGE.exec(errorReason(error))?.[1];
      if (eventBound) {
        const bound = `${formatBytes(Number(eventBound))} (${eventBound} bytes, the bound on one event)`;
        return new A2aPeerError('PEER_TOO_LARGE', `${this.describe()}: an event of its stream passed ${bound}; the rest was not read`, { cause: error });
      }
      const failure = networkFailure(error);
      if (failure === 'PEER_UNREACHABLE') return new A2aPeerError(failure, `${this.describe()} cannot be reached: ${errorReason(error)}`, { cause: error });
      if (failure === 'PEER_DISCONNECTED')
        return new A2aPeerError(failure, `${this.describe()} dropped the connection: ${errorReason(error)}`, { cause: error });
      return new A2aPeerError('PEER_PROTOCOL', `${this.describe()} answered with an error: ${errorReason(error)}`, { cause: error });
    };
    return { signal, explain, end: () => clearTimeout(timeout) };
  }

  private describe(): string {
    return `A2A peer ${this.url}`;
  }
}

function request(contextId: string, text: string, taskId = ''): SendMessageRequest {
  const message: Message = {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

function seconds(ms: number | undefined): string {
  return `${((ms ?? 0) / 1000).toFixed(1)} s`;
}
