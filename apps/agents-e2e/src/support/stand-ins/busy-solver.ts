import { Injectable, type Type } from '@nestjs/common';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { A2aClientFactory, formatExecute, TaskEvents } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';

/** What the busy solver saw of one task. */
export interface BusyTask {
  contextId: string;
  description: string;
  /** The green agent's answers, one per command, in order. */
  replies: string[];
  /** Why the commands stopped early: the error of the call that failed (the green agent died, say). */
  failure?: string;
}

export interface BusySolver {
  agent: TestAgent;
  /** Where the green agent is; set once it listens. */
  greenUrl: string;
  tasks: BusyTask[];
  /** The next task, once its first command was answered and its long one is on its way. */
  nextBusy(): Promise<BusyTask>;
  /** Cut every connection of the solver (the green agent's hand-over stream too), as a crash would. */
  die(): void;
  close(): Promise<void>;
}

/** A command that proves the task's container answers, then one that keeps the task busy. */
export const BUSY_COMMANDS = ['echo ready', 'sleep 30'] as const;

/**
 * A purple agent stand-in on loopback: given a task, it sends `execute: echo ready` to the green
 * agent on the task's context and then `execute: sleep 30`, so that the task is mid-command when a
 * test kills something. It never finishes on its own before that command returns.
 */
export async function startBusySolver(): Promise<BusySolver> {
  const clients = new A2aClientFactory();
  const waiting: { resolve: (task: BusyTask) => void; reject: (error: Error) => void }[] = [];
  const solver = { greenUrl: '', tasks: [] as BusyTask[] } as BusySolver;
  solver.nextBusy = () => new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  solver.die = () => solver.agent.app.getHttpServer().closeAllConnections();
  solver.close = () => solver.agent.close();

  @Injectable()
  class BusyExecutor implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const events = new TaskEvents(request, bus);
      const task: BusyTask = { contextId: request.contextId, description: events.userText(), replies: [] };
      solver.tasks.push(task);
      events.start('solving');
      const green = clients.peer(solver.greenUrl);
      let announced = false;
      try {
        for (const [step, command] of BUSY_COMMANDS.entries()) {
          const reply = green.sendText(request.contextId, formatExecute(command), { deadlineMs: 60_000 });
          if (step === BUSY_COMMANDS.length - 1) {
            announced = true;
            waiting.shift()?.resolve(task);
          }
          task.replies.push(await reply);
          events.progress(`step ${step + 1}: ${command}`);
        }
        events.end(TaskState.TASK_STATE_COMPLETED, 'done');
      } catch (error) {
        task.failure = (error as Error).message;
        if (!announced) waiting.shift()?.reject(new Error(`the task never got busy: ${task.failure}`));
        events.end(TaskState.TASK_STATE_FAILED, task.failure);
      }
    }

    async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
      bus.finished();
    }
  }

  solver.agent = await startTestAgent({ executor: BusyExecutor as Type<AgentExecutor> });
  return solver;
}
