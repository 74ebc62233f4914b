import { Injectable, type Type } from '@nestjs/common';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { TaskState, type Part } from '@a2a-js/sdk';
import { A2aClientFactory, formatExecute, formatSolverExit, TASK_FINISHED, TaskEvents, type SolverExit } from '@arvo-rca/a2a-protocol';
import { startTestAgent, type TestAgent } from '@arvo-rca/a2a-protocol/testing';

/**
 * One turn of a stand-in solver on a task's context; each message of the green agent gets the next turns.
 * - `send`: it sends this text to the green agent on the context as a message of its own (the callback dialect),
 *   keeps the answer, and takes its next turn;
 * - `ask`: its reply in `input-required`, as a solver that wants the next message (the reply dialect);
 * - `complete`: its reply completes its A2A task (the text may still hold a command, as some solvers do);
 * - `artifact`: its reply is the text of an artifact named `Result`, then its task completes without a
 *   status message, as terminal-bench solvers answer;
 * - `fail`: its reply fails its A2A task;
 * - `message`: it answers with a message, no task (as the first turn of a message);
 * - `die`: it cuts every connection, the green agent's stream included, as a crashed process would;
 * - `silent`: it never answers.
 */
export type SolverTurn =
  | { send: string }
  | { ask: string }
  | { complete: string; exit?: SolverExit }
  | { artifact: string }
  | { fail: string; exit?: SolverExit }
  | { message: string }
  | { die: true }
  | { silent: true };

/** The turns of the next tasks, the same for every context or made for each. */
export type SolverScript = SolverTurn[] | ((contextId: string) => SolverTurn[]);

/** A solver that calls back, as the purple agent does by default: how its run ends. */
export interface CallbackEnding {
  /** Stop answering after this many commands, as a crashed solver would (connections cut). */
  dieAfter?: number;
  /** Skip `[TASK FINISHED]` and just end the stream. */
  skipFinished?: boolean;
  /** How the run ended, said on the final status as a solver exit. */
  exit?: SolverExit;
}

/** The turns of a solver that calls back: each command as `execute:`, then `[TASK FINISHED]`, then its task completes. */
export function callingBack(commands: string[], { dieAfter, skipFinished, exit }: CallbackEnding = {}): SolverTurn[] {
  const sends: SolverTurn[] = commands.map((command) => ({ send: formatExecute(command) }));
  if (dieAfter !== undefined) return [...sends.slice(0, dieAfter), { die: true }];
  const finish: SolverTurn[] = skipFinished ? [] : [{ send: TASK_FINISHED }];
  return [...sends, ...finish, { complete: exit?.exitStatus ?? 'done', exit }];
}

/** What the stand-in saw of one context. */
export interface SolverRun {
  contextId: string;
  /** Every message the green agent sent on the context, the task description first. */
  received: string[];
  /** The A2A task of each of those messages. */
  taskIds: string[];
  /** The green agent's answers to what the stand-in sent it (`send` turns), in order. */
  answers: string[];
}

export interface SolverStandIn {
  agent: TestAgent;
  runs: SolverRun[];
  /** What the next tasks are solved with; tests swap it. */
  script: SolverScript;
  /** Where the green agent is; set once it listens. */
  greenUrl: string;
  /** The A2A tasks the green agent canceled. */
  canceled: string[];
}

const OUT_OF_SCRIPT: SolverTurn = { complete: 'out of script' };

/**
 * A purple agent stand-in: a real A2A agent on loopback that plays its script on each task's context,
 * calling the green agent back (`send`), replying to it, or both, as the script's turns say.
 */
export async function startSolverStandIn(script: SolverScript): Promise<SolverStandIn> {
  const standIn = { runs: [] as SolverRun[], script, greenUrl: '', canceled: [] as string[] } as SolverStandIn;
  const clients = new A2aClientFactory();
  const scripts = new Map<string, SolverTurn[]>();

  /** The context's run, and the turns left on it, the message recorded. */
  function receive(request: RequestContext, text: string): { run: SolverRun; turns: SolverTurn[] } {
    let run = standIn.runs.find((seen) => seen.contextId === request.contextId);
    if (!run) {
      run = { contextId: request.contextId, received: [], taskIds: [], answers: [] };
      standIn.runs.push(run);
      scripts.set(request.contextId, typeof standIn.script === 'function' ? standIn.script(request.contextId) : [...standIn.script]);
    }
    run.received.push(text);
    run.taskIds.push(request.taskId);
    return { run, turns: scripts.get(request.contextId) ?? [] };
  }

  @Injectable()
  class ScriptedSolver implements AgentExecutor {
    async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
      const events = new TaskEvents(request, bus);
      const { run, turns } = receive(request, events.userText());
      let sent = 0;
      for (;;) {
        const turn = turns.shift() ?? OUT_OF_SCRIPT;
        if ('silent' in turn) return new Promise<void>(() => undefined);
        if ('message' in turn) return events.reply(turn.message);
        if ('die' in turn) {
          standIn.agent.app.getHttpServer().closeAllConnections();
          return;
        }
        // The first turn that is not a message opens the A2A task.
        if (sent === 0) events.start();
        if ('send' in turn) {
          run.answers.push(await clients.peer(standIn.greenUrl).sendText(request.contextId, turn.send, { deadlineMs: 60_000 }));
          events.progress(`step ${++sent}: ${turn.send}`);
          continue;
        }
        if ('ask' in turn) return events.askForInput(turn.ask);
        if ('artifact' in turn) {
          const artifact = { artifactId: randomUUID(), name: 'Result', description: '', parts: [textPart(turn.artifact)], metadata: undefined, extensions: [] };
          bus.publish(
            AgentEvent.artifactUpdate({ taskId: request.taskId, contextId: request.contextId, artifact, append: false, lastChunk: true, metadata: undefined }),
          );
          return events.end(TaskState.TASK_STATE_COMPLETED);
        }
        const [state, text] = 'fail' in turn ? [TaskState.TASK_STATE_FAILED, turn.fail] : [TaskState.TASK_STATE_COMPLETED, turn.complete];
        return events.end(state, text, turn.exit && formatSolverExit(turn.exit));
      }
    }

    async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
      standIn.canceled.push(taskId);
      const contextId = standIn.runs.find((run) => run.taskIds.includes(taskId))?.contextId ?? '';
      TaskEvents.canceled(bus, taskId, contextId, 'canceled');
    }
  }

  standIn.agent = await startTestAgent({ executor: ScriptedSolver as Type<AgentExecutor> });
  return standIn;
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
