import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Role, TaskState, type Message, type Part } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { PendingSleeps } from '@arvo-rca/common';

/** What the echo agent saw of one request: its text and the protocol version it came in. */
interface EchoCall {
  text: string;
  contextId: string;
  taskId: string;
  requestedVersion: string;
}

/**
 * A small agent for tests of the A2A glue. By the text it receives:
 *   `message: <x>`  answers with a message `echo: <x>`, no task;
 *   `pause <ms>`    creates a task, reports working, stays silent for <ms>, then completes;
 *   `hang`          creates a task, reports working, and never finishes (until the app closes);
 *   `fail`          creates a task and fails it;
 *   `data <json>`   creates a task and completes with `echo: data` and the JSON as a data part;
 *   anything else   creates a task, reports working, completes with `echo: <text>`.
 */
@Injectable()
export class EchoExecutor implements AgentExecutor, OnModuleDestroy {
  readonly calls: EchoCall[] = [];
  private readonly sleeps = new PendingSleeps();
  private readonly hangs = new Set<() => void>();

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = textOf(request.userMessage);
    this.calls.push({ text, contextId: request.contextId, taskId: request.taskId, requestedVersion: request.context.requestedVersion });
    if (text.startsWith('message: ')) {
      bus.publish(AgentEvent.message(agentMessage(request, `echo: ${text.slice('message: '.length)}`)));
      bus.finished();
      return;
    }
    bus.publish(
      AgentEvent.task({
        id: request.taskId,
        contextId: request.contextId,
        status: status(request, TaskState.TASK_STATE_SUBMITTED),
        artifacts: [],
        history: [request.userMessage],
        metadata: undefined,
      }),
    );
    if (text === 'fail') return this.finish(request, bus, TaskState.TASK_STATE_FAILED, 'failed on purpose');
    if (text.startsWith('data ')) return this.finish(request, bus, TaskState.TASK_STATE_COMPLETED, 'echo: data', JSON.parse(text.slice('data '.length)));
    this.update(request, bus, TaskState.TASK_STATE_WORKING, `working on: ${text}`);
    if (text === 'hang') await new Promise<void>((resolve) => this.hangs.add(resolve));
    else if (text.startsWith('pause ')) await this.sleeps.sleep(Number(text.slice('pause '.length)));
    this.finish(request, bus, TaskState.TASK_STATE_COMPLETED, `echo: ${text}`);
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: '',
        status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }

  onModuleDestroy(): void {
    this.sleeps.cancelAll();
    this.hangs.forEach((release) => release());
  }

  private update(request: RequestContext, bus: ExecutionEventBus, state: TaskState, text: string, data?: unknown): void {
    bus.publish(
      AgentEvent.statusUpdate({ taskId: request.taskId, contextId: request.contextId, status: status(request, state, text, data), metadata: undefined }),
    );
  }

  private finish(request: RequestContext, bus: ExecutionEventBus, state: TaskState, text: string, data?: unknown): void {
    this.update(request, bus, state, text, data);
    bus.finished();
  }
}

function status(request: RequestContext, state: TaskState, text?: string, data?: unknown) {
  return { state, message: text === undefined ? undefined : agentMessage(request, text, data), timestamp: new Date().toISOString() };
}

function agentMessage(request: RequestContext, text: string, data?: unknown): Message {
  const parts: Part[] = [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  if (data !== undefined) parts.push({ content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' });
  return {
    messageId: randomUUID(),
    contextId: request.contextId,
    taskId: request.taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function textOf(message: Message): string {
  return message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
}
