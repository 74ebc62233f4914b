import { Injectable, type Type } from '@nestjs/common';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { A2aClientFactory, formatExecute, parseAssessorReply, TaskEvents, type AssessorReply } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';

/** One command the attacker sent and the green agent's reply to it, as the text came back. */
export interface Exchange {
  command: string;
  reply: string;
}

/** A task handed to the hostile solver: the test plays its commands, one at a time. */
export interface HostileTask {
  contextId: string;
  description: string;
  /** Every command sent on this task and its reply, in order. */
  exchanges: Exchange[];
  /** Sends `execute: <command>` to the green agent on the task's context; its reply, parsed. */
  run(command: string): Promise<AssessorReply>;
  /** Streams `text` as the status of the solver's A2A task, as fast as the green agent takes it, for `forMs`; how many were sent. */
  flood(text: string, forMs: number): Promise<number>;
  /** Ends the solver's side of the task: its A2A task completes, and the green agent scores what is there. */
  end(): void;
}

export interface HostileSolver {
  agent: TestAgent;
  /** Where the green agent is; set once it listens. */
  greenUrl: string;
  tasks: HostileTask[];
  /** The next task the green agent hands over. */
  nextTask(): Promise<HostileTask>;
  close(): Promise<void>;
}

// A command may run into the sandbox's own limits (a timeout, a restart): the call waits for all of it.
const COMMAND_DEADLINE_MS = 300_000;

/**
 * A purple agent stand-in on loopback that plays the attacker: given a task, it hands it to the test,
 * which sends `execute:` commands to the green agent on the task's context (the callback dialect) and decides
 * when the task ends. Every reply is recorded.
 */
export async function startHostileSolver(): Promise<HostileSolver> {
  const clients = new A2aClientFactory();
  const waiting: ((task: HostileTask) => void)[] = [];
  const arrived: HostileTask[] = [];
  const endings: (() => void)[] = [];
  const solver = { greenUrl: '', tasks: [] as HostileTask[] } as HostileSolver;
  solver.nextTask = () => new Promise((resolve) => (arrived.length > 0 ? resolve(arrived.shift() as HostileTask) : waiting.push(resolve)));
  solver.close = async () => {
    for (const end of endings) end();
    await solver.agent.close();
  };

  @Injectable()
  class HostileExecutor implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const events = new TaskEvents(request, bus);
      const green = clients.peer(solver.greenUrl);
      let end: () => void = () => undefined;
      const ended = new Promise<void>((resolve) => (end = resolve));
      endings.push(end);
      const task: HostileTask = {
        contextId: request.contextId,
        description: events.userText(),
        exchanges: [],
        run: async (command) => {
          const reply = await green.sendText(request.contextId, formatExecute(command), { deadlineMs: COMMAND_DEADLINE_MS });
          task.exchanges.push({ command, reply });
          return parseAssessorReply(reply);
        },
        flood: async (text, forMs) => {
          const until = Date.now() + forMs;
          let sent = 0;
          for (; Date.now() < until && (await events.caughtUp()); sent++) events.progress(text);
          return sent;
        },
        end,
      };
      solver.tasks.push(task);
      events.start('attacking');
      const taker = waiting.shift();
      if (taker) taker(task);
      else arrived.push(task);
      await ended;
      events.end(TaskState.TASK_STATE_COMPLETED, `done after ${task.exchanges.length} commands`);
    }

    async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
      bus.finished();
    }
  }

  solver.agent = await startTestAgent({ executor: HostileExecutor as Type<AgentExecutor> });
  return solver;
}
