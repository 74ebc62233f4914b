import {
  A2aPeerError,
  formatReplyCorrection,
  isTerminalState,
  parseSolverExit,
  parseSolverReply,
  type A2aPeer,
  type PeerTaskState,
} from '@arvo-rca/a2a-protocol';
import type { FinishReason, TaskContext } from './task-context';

/** What the conversation needs from the task it belongs to. */
export interface ConversationTask {
  context: TaskContext;
  solver: A2aPeer;
  /** Runs a command in the task's sandbox; the result text the solver is sent. */
  execute(command: string): Promise<string>;
  /** A line for the task's log and the progress of whoever started the task. */
  log(line: string): void;
  /** A line for the task's log only (what the solver reports of its own run). */
  trace(line: string): void;
  /** When the task's time is up (epoch ms); every wait on the solver ends by then, plus a grace. */
  deadline: number;
}

/** How many replies in a row may hold no action before the task ends and is scored. */
export const MAX_CORRECTIONS = 3;
// How long past the task's limit one turn may take to wind down.
const TURN_GRACE_MS = 10_000;
// How long telling a solver that its task is over may take.
const CLOSE_DEADLINE_MS = 5_000;

/** The last thing the solver said in a turn: its state, its text, and the task it said it on. */
interface TurnEnd {
  /** `replied`: the solver answered with a message, not a task. */
  state: PeerTaskState | 'replied';
  text: string;
  taskId: string;
}

/**
 * The conversation of one task, driven by the green agent. The task description goes first; the solver
 * answers each message with its next action as its reply (`execute: <command>` in `input-required`, or
 * `[TASK FINISHED]`), and the command's result goes back as the next message of the same task and
 * context. A solver that calls back instead (its commands arrive as messages of their own while its
 * first reply streams) is served by the green agent's entry, on the same context: both work at once.
 * Ends with why the solver's side stopped; the task's own finish (a callback `[TASK FINISHED]`, the time
 * limit, a shutdown) aborts it through the context's hand-over signal.
 */
export class SolverConversation {
  private corrections = 0;
  /** The solver's A2A task as last seen: what `close` has to do about it. */
  private solverTask: { id: string; state: PeerTaskState } | undefined;
  /** Whether the solver ever answered: one that cannot be reached at all is the infrastructure's failure, not its own. */
  private heard = false;

  constructor(private readonly task: ConversationTask) {}

  async run(description: string): Promise<FinishReason> {
    const { context, log } = this.task;
    let message = description;
    let continues: string | undefined;
    for (;;) {
      let end: TurnEnd | undefined;
      try {
        end = await this.turn(message, continues);
      } catch (error) {
        if (context.handover.signal.aborted) return 'solver-ended';
        // Thrown on: the task fails (and may be run again) instead of being scored as the solver's empty answer.
        if (!this.heard && error instanceof A2aPeerError && error.code === 'PEER_UNREACHABLE') throw error;
        log(`solver failed: ${(error as Error).message}`);
        return 'solver-failed';
      }
      if (!end) return 'solver-ended';
      if (end.state === 'failed' || end.state === 'rejected' || end.state === 'canceled') return 'solver-failed';
      const reply = parseSolverReply(end.text);
      if (reply.kind === 'finished') {
        log('the solver finished the task');
        context.finish('finished');
        return 'finished';
      }
      // A solver that is done with the conversation (its reply completed it, without an action) has ended.
      if (reply.kind === 'none' && end.state !== 'input-required') return 'solver-ended';
      if (reply.kind === 'none') {
        if (++this.corrections > MAX_CORRECTIONS) {
          log(`the solver's last ${MAX_CORRECTIONS + 1} replies held no action (${reply.problem}); the task ends`);
          return 'solver-ended';
        }
        message = formatReplyCorrection(reply.problem);
      } else {
        this.corrections = 0;
        message = await this.task.execute(reply.command);
      }
      if (context.handover.signal.aborted) return 'solver-ended';
      // A task waiting for input is continued; after a reply that completed its task, a new one starts on the context.
      continues = end.state === 'input-required' ? end.taskId : undefined;
    }
  }

  /**
   * Tells the solver its task is over when it ended another way (time limit, cancel, shutdown, too many
   * replies without an action), so that it does not wait for a next message: a task waiting for input
   * gets `summary` as its next message, one still working is canceled. Best effort, briefly: the task's
   * cleanup does not wait on a solver that does not answer.
   */
  async close(summary: string): Promise<void> {
    const task = this.solverTask;
    if (!task || isTerminalState(task.state)) return;
    const { solver, context, log } = this.task;
    const options = { deadlineMs: CLOSE_DEADLINE_MS };
    const told =
      task.state === 'input-required' ? solver.sendText(context.contextId, summary, { ...options, taskId: task.id }) : solver.cancel(task.id, options);
    await told.catch((error: Error) => log(`the solver was not told that its task is over: ${error.message}`));
  }

  /** Sends one message and follows the solver's stream to its end; the last thing it said, if anything. */
  private async turn(message: string, continues: string | undefined): Promise<TurnEnd | undefined> {
    const { context, solver, trace } = this.task;
    const deadlineMs = Math.max(1, this.task.deadline - Date.now()) + TURN_GRACE_MS;
    // A task that is sent a message is at work on it, whatever it said last.
    if (continues) this.solverTask = { id: continues, state: 'working' };
    let end: TurnEnd | undefined;
    for await (const event of solver.streamText(context.contextId, message, { deadlineMs, signal: context.handover.signal, taskId: continues })) {
      this.heard = true;
      if (event.kind === 'artifact') continue;
      context.solverExit = parseSolverExit(event.data) ?? context.solverExit;
      if (event.kind === 'message') {
        end = { state: 'replied', text: event.text, taskId: '' };
        this.solverTask = undefined;
        continue;
      }
      this.solverTask = { id: event.taskId, state: event.state };
      if (event.text && event.state !== 'input-required') trace(`solver ${event.state}: ${event.text}`);
      end = { state: event.state, text: event.text, taskId: event.taskId };
    }
    return end;
  }
}
