import type { ServerCallContext } from '@a2a-js/sdk/server';

// Where a streaming call's pace travels from the JSON-RPC dispatcher to the executor's TaskEvents: the
// call's state bag, which the SDK hands from the transport to the executor's RequestContext.
const STATE_KEY = 'arvo-rca.stream-pace';

/**
 * How far the requester of a streaming call has taken the events published for it. TaskEvents counts each
 * event it publishes, the SSE writer each it has handed to a socket that has room for more (its write()
 * returned true, or 'drain' came). A producer of many large events in a row (a record sent again) awaits
 * `caughtUp` between them, so that a couple of them at most wait in memory, whatever the requester's pace.
 * A stream that has ended (its requester gone, its task over) holds nobody back.
 */
export class StreamPace {
  private published = 0;
  private written = 0;
  private over = false;
  private readonly waiters = new Set<() => void>();

  /** A new pace in the context of a streaming call, where the call's TaskEvents find it. */
  static attach(context: ServerCallContext): StreamPace {
    const pace = new StreamPace();
    context.state.set(STATE_KEY, pace);
    return pace;
  }

  /** The pace of the call of `context`; undefined when the call does not stream (its events go to the task store at once). */
  static of(context: ServerCallContext | undefined): StreamPace | undefined {
    const pace = context?.state.get(STATE_KEY);
    return pace instanceof StreamPace ? pace : undefined;
  }

  /** One more event was published for the stream. */
  onPublished(): void {
    this.published += 1;
  }

  /** One more event went to the socket, and the socket has room for the next. */
  onWritten(): void {
    this.written += 1;
    this.wake();
  }

  /** The stream ended: nothing more is written, and nobody waits for it. */
  end(): void {
    this.over = true;
    this.wake();
  }

  /**
   * True once no more than `behind` published events wait to be written; false, at once, when the stream has
   * ended or `signal` aborts: then nobody takes more.
   */
  async caughtUp(behind: number, signal?: AbortSignal): Promise<boolean> {
    for (;;) {
      if (this.over || signal?.aborted) return false;
      if (this.published - this.written <= behind) return true;
      await this.change(signal);
    }
  }

  private change(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      this.waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
