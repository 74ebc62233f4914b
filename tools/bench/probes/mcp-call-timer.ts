// Times what a CLI agent's MCP calls cost the purple agent, read off Node's own diagnostics channels (the
// http server's request start, the child_process spawn), so that the product's server and process are
// measured as they run, with nothing put in their path.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** What the timer reads, at each request's start and end, to take the sandbox's share out. */
export interface SandboxGauge {
  /** Milliseconds spent in the sandbox so far. */
  spentMs(): number;
  /** The task's own commands run so far (the submission's `cat` excluded). */
  commands(): number;
}

interface OpenCall {
  at: number;
  spentMs: number;
  commands: number;
  overlapped: boolean;
}

interface HttpMessage {
  request: IncomingMessage;
  response: ServerResponse;
}

const REQUEST_START = 'http.server.request.start';
const SPAWN_START = 'tracing:child_process.spawn:start';

/**
 * One run's figures: per `shell` call (a POST to `mcpPath` during which exactly one of the task's commands
 * ran), the time from the request's arrival to its answer leaving, less the sandbox's time; and the time
 * from the first process spawned to the first request that was not an MCP one (the model's).
 */
export class McpCallTimer {
  /** Overhead of each `shell` call, in the order answered. */
  readonly overheadsMs: number[] = [];
  /** `shell` calls left out because another request was in flight on the MCP server at the same time. */
  overlapped = 0;
  private readonly open = new Map<IncomingMessage, OpenCall>();
  private spawnedAt?: number;
  private firstModelRequestAt?: number;

  constructor(
    private readonly gauge: SandboxGauge,
    private readonly mcpPath = '/mcp',
  ) {}

  /** Milliseconds from the first spawn to the first model request; NaN when either is missing. */
  get startMs(): number {
    return this.spawnedAt === undefined || this.firstModelRequestAt === undefined ? Number.NaN : this.firstModelRequestAt - this.spawnedAt;
  }

  /** Listens until `work` settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    subscribe(REQUEST_START, this.onRequest);
    subscribe(SPAWN_START, this.onSpawn);
    try {
      return await work();
    } finally {
      unsubscribe(REQUEST_START, this.onRequest);
      unsubscribe(SPAWN_START, this.onSpawn);
    }
  }

  private readonly onSpawn = (): void => {
    this.spawnedAt ??= performance.now();
  };

  private readonly onRequest = (message: unknown): void => {
    const { request, response } = message as HttpMessage;
    const at = performance.now();
    if ((request.url ?? '').split('?')[0] !== this.mcpPath) {
      this.firstModelRequestAt ??= at;
      return;
    }
    if (request.method !== 'POST') return;
    const overlapped = this.open.size > 0;
    for (const call of this.open.values()) call.overlapped ||= overlapped;
    this.open.set(request, { at, spentMs: this.gauge.spentMs(), commands: this.gauge.commands(), overlapped });
    // Emitted within `end()`, once the answer is handed to the socket ('finish' waits for the write's callback,
    // which a busy machine can hold back for milliseconds after the answer has left).
    response.once('prefinish', () => this.onAnswered(request));
    response.once('close', () => this.open.delete(request));
  };

  private onAnswered(request: IncomingMessage): void {
    const call = this.open.get(request);
    if (!call) return;
    this.open.delete(request);
    if (this.gauge.commands() - call.commands !== 1) return;
    if (call.overlapped) {
      this.overlapped += 1;
      return;
    }
    this.overheadsMs.push(performance.now() - call.at - (this.gauge.spentMs() - call.spentMs));
  }
}
