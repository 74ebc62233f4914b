import { Injectable, type Type } from '@nestjs/common';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { TaskState } from '@a2a-js/sdk';
import { A2aClientFactory, formatSolverExit, TaskEvents, type SolverExit } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';

/**
 * One turn of a stand-in solver in reply mode: what it answers the green's latest message with.
 * - `ask`: its reply in `input-required`, as a solver that wants the next message (a command, prose ...);
 * - `complete`: its reply completes its A2A task (the text may still hold a command, as some solvers do);
 * - `fail`: its reply fails its A2A task;
 * - `message`: it answers with a message, no task;
 * - `callback`: it sends this text to the green agent as a message of its own, then asks with `then`;
 * - `silent`: it never answers.
 */
export type ReplyTurn =
  | { ask: string }
  | { complete: string; exit?: SolverExit }
  | { fail: string; exit?: SolverExit }
  | { message: string }
  | { callback: string; then: string }
  | { silent: true };

/** What the stand-in saw of one context: every message the green agent sent on it, and the A2A task ids. */
export interface ReplyRun {
  contextId: string;
  received: string[];
  taskIds: string[];
  callbackAnswers: string[];
}

export interface ReplySolverStandIn {
  agent: TestAgent;
  runs: ReplyRun[];
  /** The turns of the next tasks, in order; tests swap it. */
  turns: ReplyTurn[];
  greenUrl: string;
  /** The A2A tasks the green agent canceled. */
  canceled: string[];
}

/**
 * A purple agent stand-in that never calls the green agent back unless a turn says so: a real A2A agent
 * on loopback answering each message of a task's context with its next scripted turn.
 */
export async function startReplySolverStandIn(turns: ReplyTurn[]): Promise<ReplySolverStandIn> {
  const standIn = { runs: [] as ReplyRun[], turns, greenUrl: '', canceled: [] as string[] } as ReplySolverStandIn;
  const clients = new A2aClientFactory();
  const scripts = new Map<string, ReplyTurn[]>();

  @Injectable()
  class ReplyingSolver implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const events = new TaskEvents(request, bus);
      let run = standIn.runs.find((seen) => seen.contextId === request.contextId);
      if (!run) {
        run = { contextId: request.contextId, received: [], taskIds: [], callbackAnswers: [] };
        standIn.runs.push(run);
        scripts.set(request.contextId, [...standIn.turns]);
      }
      run.received.push(events.userText());
      run.taskIds.push(request.taskId);
      const turn = scripts.get(request.contextId)?.shift() ?? { complete: 'out of script' };
      if ('silent' in turn) return new Promise<void>(() => undefined);
      if ('message' in turn) return events.reply(turn.message);
      events.start();
      if ('callback' in turn) {
        run.callbackAnswers.push(await clients.peer(standIn.greenUrl).sendText(request.contextId, turn.callback, { deadlineMs: 60_000 }));
        return events.askForInput(turn.then);
      }
      if ('ask' in turn) return events.askForInput(turn.ask);
      if ('fail' in turn) return events.end(TaskState.TASK_STATE_FAILED, turn.fail, turn.exit && formatSolverExit(turn.exit));
      events.end(TaskState.TASK_STATE_COMPLETED, turn.complete, turn.exit && formatSolverExit(turn.exit));
    }

    async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
      standIn.canceled.push(taskId);
      const contextId = standIn.runs.find((run) => run.taskIds.includes(taskId))?.contextId ?? '';
      TaskEvents.canceled(bus, taskId, contextId, 'canceled');
    }
  }

  standIn.agent = await startTestAgent({ executor: ReplyingSolver as Type<AgentExecutor> });
  return standIn;
}
