import { randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';

export interface StreamPart {
  kind: string;
  text?: string;
  data?: unknown;
}

/** One event of an A2A 0.3 stream, as far as these tests read it. */
export interface StreamEvent {
  kind: string;
  id?: string;
  taskId?: string;
  status?: { state: string; message?: { parts: StreamPart[] } };
  artifact?: { name?: string; parts: StreamPart[] };
}

/**
 * A `message/stream` call read with node:http, as a requester that reads at its own pace: `pause()` stops
 * reading the response (the socket's buffers fill, and then the sender's), `resume()` reads on, `close()`
 * goes away mid-stream. Each event is parsed as it comes.
 */
export class SseRequester {
  readonly events: StreamEvent[] = [];
  readonly ended: Promise<void>;
  private text = '';
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly request: ClientRequest,
    private readonly response: IncomingMessage,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => this.take(chunk));
    this.ended = new Promise((resolve) => response.once('close', resolve)).then(() => this.wake());
  }

  /** Sends `text` as a user message on a new context, and resolves once the stream's headers are in. */
  static start(url: string, text: string): Promise<SseRequester> {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/stream',
      params: { message: { kind: 'message', messageId: randomUUID(), contextId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }] } },
    });
    return new Promise((resolve, reject) => {
      const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' } }, (response) =>
        resolve(new SseRequester(request, response)),
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** The A2A task id of the stream (its first event is the task). */
  get taskId(): string {
    return this.events.find((event) => event.kind === 'task')?.id ?? '';
  }

  /** The events that are a `Run record` artifact. */
  get recordPieces(): number {
    return this.events.filter((event) => event.kind === 'artifact-update' && event.artifact?.name === 'Run record').length;
  }

  /** The last status state the stream said. */
  get lastState(): string | undefined {
    return this.events.findLast((event) => event.status !== undefined)?.status?.state;
  }

  pause(): void {
    this.response.pause();
  }

  resume(): void {
    this.response.resume();
  }

  close(): void {
    this.request.destroy();
  }

  /** Resolves once `count` events match, or the stream has ended (then the count may fall short). */
  async until(matches: (event: StreamEvent) => boolean, count = 1): Promise<void> {
    while (this.events.filter(matches).length < count && !this.response.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private take(chunk: string): void {
    this.text += chunk;
    let end = this.text.indexOf('\n\n');
    while (end >= 0) {
      const data = this.text
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length))
        .join('\n');
      this.text = this.text.slice(end + 2);
      if (data !== '') this.events.push((JSON.parse(data) as { result: StreamEvent }).result);
      end = this.text.indexOf('\n\n');
    }
    this.wake();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
