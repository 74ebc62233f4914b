import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutionEvent, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { StreamPace } from './stream-pace';

// How many of its events a producer that awaits caughtUp() may have published that the requester has not taken yet:
// one being written while the next is made.
const EVENTS_IN_FLIGHT = 1;

/** How a request's events go out. */
export interface TaskEventsOptions {
  /**
   * Progress lines closer together than this go out together, as one `working` update: its text their
   * texts, a line each, and each line's data as a data part of its own. The first line after a quiet
   * spell goes at once; any other event sends the lines held before it. Unset: each line is an update.
   */
  progressEveryMs?: number;
}

/** A progress line held to go out with the next ones. */
interface HeldLine {
  text: string;
  data: object | undefined;
}

/**
 * The events one request publishes, in the order A2A wants them: either a single message (`reply`),
 * or a task (`start`), its status updates (`progress`), artifacts, and one final status (`end`). A
 * request the agent refuses is a task that ends `rejected` (`reject`), never a bare message: a client
 * that waits for a task's state (the AgentBeats gateway) would otherwise wait for ever.
 * Keeps protocol shapes out of the agents' logic.
 */
export class TaskEvents {
  private started = false;
  private readonly pace: StreamPace | undefined;
  private held: HeldLine[] = [];
  private holding: NodeJS.Timeout | undefined;
  /** When the last progress update went (performance.now()). */
  private progressAt = -Infinity;

  constructor(
    private readonly request: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly options: TaskEventsOptions = {},
  ) {
    this.pace = StreamPace.of(request.context);
  }

  /** Says on `bus` that a task was canceled, as its final status (for an executor's cancelTask). */
  static canceled(bus: ExecutionEventBus, taskId: string, contextId: string, text: string): void {
    const message: Message = {
      messageId: randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts: [textPart(text)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  get contextId(): string {
    return this.request.contextId;
  }

  userText(): string {
    return this.request.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
  }

  /** The data parts of the user's message (an assessment request may come as data). */
  userData(): unknown[] {
    return this.request.userMessage.parts.flatMap((part) => (part.content?.$case === 'data' ? [part.content.value] : []));
  }

  /**
   * Resolves true once the requester has taken this request's events but the last (at once when it does not
   * stream: they go to the task store); false, at once, when it takes no more: gone, its stream over, or
   * `signal` aborted. A producer of many large events awaits it before each, so that they wait in a
   * slow requester's socket one at a time rather than all in this process's memory.
   */
  async caughtUp(signal?: AbortSignal): Promise<boolean> {
    if (!this.pace) return !signal?.aborted;
    return this.pace.caughtUp(EVENTS_IN_FLIGHT, signal);
  }

  /** Answers with one message and no task; `data` goes beside the text as a data part. */
  reply(text: string, data?: object): void {
    this.publish(AgentEvent.message(this.message(text, data)));
    this.bus.finished();
  }

  /** Whether this request starts a task, rather than continuing one that waits for input. */
  get isNewTask(): boolean {
    return this.request.task === undefined;
  }

  /** Opens the request's task: a new one, or the one waiting for input that this request continues (A2A wants the task first either way). */
  start(text?: string): void {
    const { taskId, contextId, userMessage, task } = this.request;
    const opened = task
      ? { ...task, status: this.status(TaskState.TASK_STATE_WORKING) }
      : { id: taskId, contextId, status: this.status(TaskState.TASK_STATE_SUBMITTED), artifacts: [], history: [userMessage], metadata: undefined };
    this.publish(AgentEvent.task(opened));
    this.started = true;
    if (text !== undefined) this.progress(text);
  }

  /** A `working` status; `data` goes beside the text as a data part (a progress line, say). Held with the next lines under `progressEveryMs`. */
  progress(text: string, data?: object): void {
    const every = this.options.progressEveryMs;
    if (every === undefined) return this.publishStatus(TaskState.TASK_STATE_WORKING, text, data);
    this.held.push({ text, data });
    if (this.holding) return;
    const wait = this.progressAt + every - performance.now();
    if (wait <= 0) this.sendHeld();
    else this.holding = setTimeout(() => this.sendHeld(), wait);
  }

  /** An artifact with one data part; one with the `artifactId` of an earlier one replaces it (the task keeps the newest). */
  artifact(name: string, data: unknown, artifactId: string = randomUUID()): void {
    const { taskId, contextId } = this.request;
    const part: Part = { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' };
    const artifact = { artifactId, name, description: '', parts: [part], metadata: undefined, extensions: [] };
    this.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
  }

  /** Ends the request as `failed` with the reason, its task opened first if it was not yet. */
  fail(reason: string, data?: object): void {
    if (!this.started) this.start();
    this.end(TaskState.TASK_STATE_FAILED, reason, data);
  }

  /** Refuses the request: its task opens and ends at once in state `rejected`, the reason as its status message. */
  reject(reason: string, data?: object): void {
    if (!this.started) this.start();
    this.end(TaskState.TASK_STATE_REJECTED, reason, data);
  }

  /** Asks the requester for its next message (`input-required`): this request's stream ends here, the task goes on with the next one. */
  askForInput(text: string): void {
    this.publishStatus(TaskState.TASK_STATE_INPUT_REQUIRED, text);
    this.bus.finished();
  }

  /** The final status; `data` goes beside the text as a data part (how a solver's run ended, say); no text, no status message. */
  end(state: TaskState, text?: string, data?: object): void {
    this.publishStatus(state, text, data);
    this.bus.finished();
  }

  // The lines held go out as one update.
  private sendHeld(): void {
    clearTimeout(this.holding);
    this.holding = undefined;
    const lines = this.held;
    if (lines.length === 0) return;
    this.held = [];
    this.progressAt = performance.now();
    const data = lines.flatMap((line) => (line.data === undefined ? [] : [line.data]));
    this.publishStatus(TaskState.TASK_STATE_WORKING, lines.map((line) => line.text).join('\n'), data);
  }

  private publishStatus(state: TaskState, text: string | undefined, data?: object | readonly object[]): void {
    const { taskId, contextId } = this.request;
    this.publish(AgentEvent.statusUpdate({ taskId, contextId, status: this.status(state, text, data), metadata: undefined }));
  }

  private publish(event: AgentExecutionEvent): void {
    // Lines held go before any other event: they came first.
    if (this.held.length > 0) this.sendHeld();
    this.pace?.onPublished();
    this.bus.publish(event);
  }

  private status(state: TaskState, text?: string, data?: object | readonly object[]) {
    return { state, message: text === undefined ? undefined : this.message(text, data), timestamp: new Date().toISOString() };
  }

  private message(text: string, data?: object | readonly object[]): Message {
    const { taskId, contextId } = this.request;
    const parts: Part[] = [textPart(text)];
    for (const value of dataValues(data)) parts.push({ content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' });
    return {
      messageId: randomUUID(),
      contextId,
      taskId,
      role: Role.ROLE_AGENT,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
  }
}

function dataValues(data: object | readonly object[] | undefined): readonly object[] {
  if (data === undefined) return [];
  return Array.isArray(data) ? (data as readonly object[]) : [data];
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
