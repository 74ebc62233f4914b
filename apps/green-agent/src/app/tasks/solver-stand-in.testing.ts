import { Injectable, type Type } from '@nestjs/common';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { A2aClientFactory, formatExecute, formatSolverExit, TASK_FINISHED, TaskEvents, type SolverExit } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';

/** What a stand-in solver does with a task: commands to send, then finish, or die part-way. */
export interface SolverScript {
  commands: (contextId: string) => string[];
  /** Stop answering after this many commands, as a crashed solver would (connections cut). */
  dieAfter?: number;
  /** Skip `[TASK FINISHED]` and just end the stream. */
  skipFinished?: boolean;
  /** How the run ended, said on the final status as a solver exit. */
  exit?: SolverExit;
}

/** What the stand-in saw of one task. */
export interface SolverRun {
  contextId: string;
  description: string;
  replies: string[];
  finishedReply?: string;
}

export interface SolverStandIn {
  agent: TestAgent;
  runs: SolverRun[];
  /** What the next tasks are solved with; tests swap it. */
  script: SolverScript;
  /** Where the green agent is; set once it listens. */
  greenUrl: string;
}

/**
 * A purple agent stand-in: a real A2A agent on loopback that, given a task, sends scripted
 * `execute:` commands to the green agent on the task's context, reports each step, and finishes.
 */
export async function startSolverStandIn(script: SolverScript): Promise<SolverStandIn> {
  const standIn = { runs: [] as SolverRun[], script, greenUrl: '' } as SolverStandIn;
  const clients = new A2aClientFactory();

  @Injectable()
  class ScriptedSolver implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const events = new TaskEvents(request, bus);
      const run: SolverRun = { contextId: request.contextId, description: events.userText(), replies: [] };
      standIn.runs.push(run);
      events.start('solving');
      const script = standIn.script;
      const green = clients.peer(standIn.greenUrl);
      for (const [step, command] of script.commands(request.contextId).entries()) {
        if (script.dieAfter !== undefined && step >= script.dieAfter) {
          // Cut every connection, the green agent's stream included, as a crashed process would.
          standIn.agent.app.getHttpServer().closeAllConnections();
          return;
        }
        const reply = await green.sendText(request.contextId, formatExecute(command), { deadlineMs: 60_000 });
        run.replies.push(reply);
        events.progress(`step ${step + 1}: ${command}`);
      }
      if (!script.skipFinished) run.finishedReply = await green.sendText(request.contextId, TASK_FINISHED, { deadlineMs: 60_000 });
      events.end(TaskState.TASK_STATE_COMPLETED, script.exit?.exitStatus ?? 'done', script.exit && formatSolverExit(script.exit));
    }

    async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
      bus.finished();
    }
  }

  standIn.agent = await startTestAgent({ executor: ScriptedSolver as Type<AgentExecutor> });
  return standIn;
}
