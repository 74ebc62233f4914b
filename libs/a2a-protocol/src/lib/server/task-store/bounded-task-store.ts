import { TaskState, type ListTasksRequest, type ListTasksResponse, type Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { resolveUserScope, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { copyOf, StoredMessages } from './task-copies';

export interface TaskStoreLimits {
  /** Messages kept per task: the first (the request) and the latest ones. */
  historyLimit: number;
  /** Tasks in a terminal state kept for `tasks/get`; the longest finished go first. */
  finishedLimit: number;
}

export const DEFAULT_TASK_STORE_LIMITS: TaskStoreLimits = { historyLimit: 100, finishedLimit: 1000 };

const TERMINAL = new Set<TaskState>([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);
const DEFAULT_PAGE_SIZE = 50;

/**
 * The A2A task store of both agents: the SDK's in-memory store, bounded. The SDK's own keeps every task
 * forever, and the request handler copies a task's whole history at each status update (load, append,
 * save), so an assessment's progress lines cost time quadratic in their number on the event loop and
 * memory without end in a long-lived agent. Here a task's history keeps its request and its latest
 * messages, and only the most recently finished tasks are kept. Reads and writes copy the task, as the
 * SDK's store does (the handler changes what it loads), but share the strings (see copyOf); its history's
 * messages are stored frozen and handed out as they are, so only messages new to the store are copied
 * (see StoredMessages). Tasks are scoped by tenant and caller likewise.
 */
export class BoundedTaskStore implements TaskStore {
  /** By scope and id; a Map keeps insertion order, and a finished task is re-inserted at the end. */
  private readonly tasks = new Map<string, Task>();
  private finishedCount = 0;
  private readonly messages = new StoredMessages();

  constructor(private readonly limits: TaskStoreLimits = DEFAULT_TASK_STORE_LIMITS) {}

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const key = keyOf(scopeOf(context), taskId);
    const task = this.tasks.get(key);
    if (!task) return undefined;
    return { ...copyOf({ ...task, history: [] }), history: task.history && this.messages.handOut(task.history) };
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const key = keyOf(scopeOf(context), task.id);
    const before = this.tasks.get(key);
    const wasFinished = before !== undefined && isFinished(before);
    const history = boundedHistory(task.history, this.limits.historyLimit);
    const stored = { ...copyOf({ ...task, history: [] }), history: history && this.messages.keep(history) };
    if (isFinished(stored) && !wasFinished) {
      this.tasks.delete(key); // to the end of the order: the newest finished task
      this.finishedCount += 1;
    } else if (wasFinished && !isFinished(stored)) {
      this.finishedCount -= 1;
    }
    this.tasks.set(key, stored);
    this.evictFinished();
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const scope = scopeOf(context);
    const after = params.statusTimestampAfter ? new Date(params.statusTimestampAfter).getTime() : undefined;
    const matching = [...this.tasks]
      .filter(([key]) => key.startsWith(scope))
      .map(([, task]) => task)
      .filter((task) => !params.contextId || task.contextId === params.contextId)
      .filter((task) => !params.status || task.status?.state === params.status)
      .filter((task) => after === undefined || (task.status?.timestamp !== undefined && new Date(task.status.timestamp).getTime() > after))
      .sort(newestFirst);
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    const rest = params.pageToken ? afterCursor(matching, params.pageToken) : matching;
    const page = rest.slice(0, pageSize);
    const last = page.at(-1);
    return {
      tasks: page.map((task) => ({ ...copyOf(task), artifacts: params.includeArtifacts ? copyOf(task.artifacts) : [] })),
      nextPageToken: last && rest.length > page.length ? encodeCursor(last) : '',
      pageSize,
      totalSize: matching.length,
    };
  }

  /** Messages copied into the store by saves so far: those new to it. */
  get copiedMessages(): number {
    return this.messages.copied;
  }

  private evictFinished(): void {
    for (const [key, task] of this.tasks) {
      if (this.finishedCount <= this.limits.finishedLimit) return;
      if (!isFinished(task)) continue;
      this.tasks.delete(key);
      this.finishedCount -= 1;
    }
  }
}

function scopeOf(context: ServerCallContext): string {
  return `${JSON.stringify([context.tenant ?? '', resolveUserScope(context)])}\n`;
}

function keyOf(scope: string, taskId: string): string {
  return scope + taskId;
}

function isFinished(task: Task): boolean {
  return task.status?.state !== undefined && TERMINAL.has(task.status.state);
}

/** The request that started the task, then the latest messages. */
function boundedHistory(history: Task['history'], limit: number): Task['history'] {
  if (!history || history.length <= limit) return history;
  return [history[0], ...history.slice(history.length - (limit - 1))];
}

function newestFirst(a: Task, b: Task): number {
  const byTime = (b.status?.timestamp ?? '').localeCompare(a.status?.timestamp ?? '');
  return byTime !== 0 ? byTime : b.id.localeCompare(a.id);
}

// The cursor names the last task of a page, as the SDK's store does: `<timestamp>|<id>`, base64.
function encodeCursor(task: Task): string {
  return Buffer.from(`${task.status?.timestamp ?? ''}|${task.id}`).toString('base64');
}

function afterCursor(tasks: Task[], token: string): Task[] {
  const [timestamp, ...id] = Buffer.from(token, 'base64').toString('utf8').split('|');
  if (id.length === 0) throw new RequestMalformedError('Invalid page token format.');
  const at = tasks.findIndex((task) => (task.status?.timestamp ?? '') === timestamp && task.id === id.join('|'));
  return at === -1 ? [] : tasks.slice(at + 1);
}
