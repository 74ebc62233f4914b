import { Injectable, type Type } from '@nestjs/common';
import { TaskState, type Part } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { formatShellMessage, parseShellMessage, TaskEvents, type ExecRequest, type ExecResult, type ShellMessage } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';
import { randomUUID } from 'node:crypto';

/** The commands a solver asks for on a task, from the instruction it got; after the last it answers `final`. */
export type ShellScript = (instruction: string) => ExecRequest[];

/** What the stand-in saw of one conversation (one context). */
export interface ShellRun {
  contextId: string;
  /** Every message the assessor sent on it, as it came: the task envelope first. */
  received: string[];
  /** The A2A task of each of those messages: every turn is its own. */
  taskIds: string[];
  /** The `exec_result` of each command, in order. */
  results: ExecResult[];
}

export interface TerminalBenchSolver {
  agent: TestAgent;
  runs: ShellRun[];
  script: ShellScript;
}

// RDI-Foundation/terminal-bench-dummy-purple, src/server.py 26-31: its one skill, tagged `terminal-bench`.
const CARD = {
  name: 'Terminal Bench Dummy Purple',
  description: 'Dummy purple agent for terminal-bench evaluations.',
  skills: [
    {
      id: 'terminal-bench-dummy',
      name: 'Terminal Bench Dummy',
      description: 'Responds to terminal-bench-shell-v1 protocol messages.',
      tags: ['terminal-bench', 'dummy'],
      examples: [],
    },
  ],
};
// A terminal-bench solver as most third-party ones are: its card names no dialect, and no skill is tagged `terminal-bench`.
const UNTAGGED_CARD = {
  name: 'Shell Agent',
  description: 'Solves tasks in a terminal.',
  skills: [{ id: 'solve', name: 'Solve', description: 'Runs shell commands to solve a task.', tags: ['agent', 'shell'], examples: [] }],
};
const TERMINAL: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_REJECTED,
]);

/**
 * A terminal-bench solver, as RDI-Foundation/terminal-bench-dummy-purple is, on loopback; its commands come
 * from `script` where the dummy asks for none. `untagged`: its card names no dialect, as most others' do. The rules, each from the dummy's source:
 * - a message on a task that has ended is an error (src/executor.py 36-38);
 * - each message without a task opens a new one, `submitted`, then `working` (executor.py 40-42, 52);
 * - one conversation per context id (executor.py 44-47);
 * - its answer is one text part in an artifact named `Result`, after a `working` status "Processing..."
 *   (src/agent.py 18-24), and the task then completes without a status message (executor.py 54-56);
 * - a `task` envelope or an `exec_result` is answered (agent.py 42-46: with `final`; here with the script's
 *   next `exec_request` while there is one); any other text gets `final` with the text as its output (agent.py 33-48).
 */
export async function startTerminalBenchSolver(script: ShellScript, card: 'tagged' | 'untagged' = 'tagged'): Promise<TerminalBenchSolver> {
  const solver = { runs: [] as ShellRun[], script } as TerminalBenchSolver;
  const pending = new Map<string, ExecRequest[]>();

  function answer(run: ShellRun, message: ShellMessage | undefined, text: string): ShellMessage {
    if (message?.kind === 'task') pending.set(run.contextId, solver.script(message.instruction));
    else if (message?.kind === 'exec_result') run.results.push(message);
    else return { kind: 'final', output: text };
    return pending.get(run.contextId)?.shift() ?? { kind: 'final', output: 'done' };
  }

  @Injectable()
  class DummySolver implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const { taskId, contextId, userMessage, task } = request;
      if (task && TERMINAL.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) throw new Error(`Task ${task.id} already processed`);
      const text = userMessage.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
      let run = solver.runs.find((seen) => seen.contextId === contextId);
      if (!run) solver.runs.push((run = { contextId, received: [], taskIds: [], results: [] }));
      run.received.push(text);
      run.taskIds.push(taskId);
      const reply = formatShellMessage(answer(run, parseShellMessage(text), text));
      const events = new TaskEvents(request, bus);
      events.start();
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }));
      events.progress('Processing...');
      const artifact = { artifactId: randomUUID(), name: 'Result', description: '', parts: [textPart(reply)], metadata: undefined, extensions: [] };
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
      events.end(TaskState.TASK_STATE_COMPLETED);
    }

    // executor.py 61-62: canceling is not supported.
    async cancelTask(): Promise<void> {
      throw new Error('cancel is not supported');
    }
  }

  solver.agent = await startTestAgent({ executor: DummySolver as Type<AgentExecutor>, card: card === 'tagged' ? CARD : UNTAGGED_CARD });
  return solver;
}

function status(state: TaskState) {
  return { state, message: undefined, timestamp: new Date().toISOString() };
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
