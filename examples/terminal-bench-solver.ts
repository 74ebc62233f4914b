// A minimal solver in terminal-bench-shell-v1, the dialect of AgentBeats' terminal-bench assessor. Every message
// is one JSON text: the task comes as {"kind":"task",…,"instruction":…}; the solver asks for a command with
// {"kind":"exec_request","command":…}, gets {"kind":"exec_result","exit_code":…,"stdout":…,"stderr":…} on the
// same context, and ends with {"kind":"final","output":…}. Each turn is an A2A task of its own that must end
// `completed`; the reply goes in an artifact named `Result`.
// Its strategy is naive but real: it reads the crash report and names the top in-project frame.
// Run: npx tsx examples/terminal-bench-solver.ts --port 9019   (copy it with solver-server.ts; they need only @a2a-js/sdk)
import { randomUUID } from 'node:crypto';
import { Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { TaskNotCancelableError } from '@a2a-js/sdk/errors';
import { AgentEvent } from '@a2a-js/sdk/server';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { serveSolver, solve } from './solver-server';

/** One run of the script per context: the `task` message starts it, each `exec_result` moves it on. */
class TerminalBenchSolver implements AgentExecutor {
  private readonly runs = new Map<string, Generator<string, void, string>>();

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { contextId } = request;
    const text = request.userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
    const message = JSON.parse(text) as { kind: string; stdout?: string };
    if (message.kind === 'task') this.runs.set(contextId, solve());
    const run = this.runs.get(contextId);
    const step = message.kind === 'task' ? run?.next() : run?.next(message.stdout ?? '');
    const command = step?.done === false ? step.value : undefined;
    if (command === undefined) this.runs.delete(contextId);
    console.log(command === undefined ? `${contextId}: done` : `${contextId}: $ ${command.split('\n')[0]}`);
    const reply = command === undefined ? { kind: 'final', output: 'wrote /workspace/shared/loc.json' } : { kind: 'exec_request', command, timeout: 30 };
    answer(request, bus, JSON.stringify(reply));
  }

  // Each turn is answered at once, so no task of this solver is ever left running to cancel.
  async cancelTask(taskId: string): Promise<void> {
    throw new TaskNotCancelableError(`task ${taskId} is not running`);
  }
}

/** This turn's task: opened, its reply in an artifact named `Result`, then completed. */
function answer(request: RequestContext, bus: ExecutionEventBus, text: string): void {
  const { taskId, contextId, userMessage } = request;
  bus.publish(AgentEvent.task({ ...Task.fromJSON({ id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED' } }), history: [userMessage] }));
  const artifact = { artifactId: randomUUID(), name: 'Result', parts: [{ text }] };
  bus.publish(AgentEvent.artifactUpdate(TaskArtifactUpdateEvent.fromJSON({ taskId, contextId, artifact, lastChunk: true })));
  bus.publish(AgentEvent.statusUpdate(TaskStatusUpdateEvent.fromJSON({ taskId, contextId, status: { state: 'TASK_STATE_COMPLETED' } })));
  bus.finished();
}

serveSolver(
  {
    name: 'terminal-bench-shell-v1 example solver',
    skill: { id: 'shell', name: 'Shell', description: 'Solves tasks with shell commands', tags: ['terminal-bench-shell-v1'] },
  },
  new TerminalBenchSolver(),
);
