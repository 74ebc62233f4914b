// A minimal solver in the reply dialect: it answers each message of the assessor with its next command,
// `execute: <command>` in state input-required, and `[TASK FINISHED]` (completed) once loc.json is written.
// Its strategy is naive but real: it reads the crash report and names the top in-project frame.
// Run: npx tsx examples/reply-solver.ts --port 9019   (copy it with solver-server.ts; they need only @a2a-js/sdk)
import { randomUUID } from 'node:crypto';
import { Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { serveSolver, solve } from './solver-server';

/** One run of the script per context; a command's result arrives as `<returncode>N</returncode>\n<output>\n…\n</output>`. */
class ReplySolver implements AgentExecutor {
  private readonly runs = new Map<string, Generator<string, void, string>>();

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { contextId } = request;
    const text = request.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    const run = this.runs.get(contextId) ?? solve();
    const output = /<output>\n([\s\S]*)\n<\/output>/.exec(text)?.[1] ?? '';
    const step = this.runs.has(contextId) ? run.next(output) : run.next();
    this.runs.set(contextId, run);
    if (step.done) this.runs.delete(contextId);
    console.log(step.done ? `${contextId}: done` : `${contextId}: $ ${step.value.split('\n')[0]}`);
    if (step.done) answer(request, bus, 'TASK_STATE_COMPLETED', '[TASK FINISHED]');
    else answer(request, bus, 'TASK_STATE_INPUT_REQUIRED', `execute: ${step.value}`);
  }

  // Each turn is answered at once, so no task of this solver is ever left running to cancel.
  async cancelTask(taskId: string): Promise<void> {
    throw new TaskNotCancelableError(`task ${taskId} is not running`);
  }
}

/** Opens the request's task (A2A wants it first, even when this message continues it) and ends the turn in `state` with `text`. */
function answer(request: RequestContext, bus: ExecutionEventBus, state: string, text: string): void {
  const { taskId, contextId, userMessage } = request;
  const task = request.task ?? { ...Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' } }), history: [userMessage] };
  const message = { messageId: randomUUID(), taskId, contextId, role: 'ROLE_AGENT', parts: [{ text }] };
  bus.publish(AgentEvent.task(task));
  bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state, message } })));
  bus.finished();
}

serveSolver(
  { name: 'reply-mode example solver', skill: { id: 'root-cause', name: 'Root cause', description: 'Names where a crash is', tags: ['reply'] } },
  new ReplySolver(),
);
