import { A2aPeerError, isTerminalState, parseSolverExit, type A2aPeer, type DialectName, type PeerEvent, type PeerTaskState } from '@arvo-rca/a2a-protocol';
import { textHead } from '@arvo-rca/common';
import type { ExecOutcome } from '@arvo-rca/sandbox';
import type { SolverDialect, SolverTurnEnd } from '../dialects';
import type { FinishReason, TaskContext } from '../task-context';

/** What the conversation needs from the task it belongs to. */
export interface ConversationTask {
  context: TaskContext;
  solver: A2aPeer;
  /** The dialect the solver is first spoken to in; one per conversation (a restart brings another). */
  dialect: SolverDialect;
  /** Runs a command in the task's sandbox, within `timeoutS` when given. */
  execute(command: string, timeoutS?: number): Promise<ExecOutcome>;
  /** A line for the task's log and the progress of whoever started the task. */
  log(line: string): void;
  /** A line for the task's log only (what the solver reports of its own run). */
  trace(line: string): void;
  /** When the task's time is up (epoch ms); every wait on the solver ends by then, plus a grace. */
  deadline: number;
}

/** The most of one text the solver controls (a status, a command, a reason) that a line of the task's log or progress shows. */
export const SOLVER_TEXT_LOG_BYTES = 4096;

// How long past the task's limit one turn may take to wind down.
const TURN_GRACE_MS = 10_000;
// How long telling a solver that its task is over may take.
const CLOSE_DEADLINE_MS = 5_000;

/** The last thing the solver said in a turn, and the task it said it on. */
interface TurnEnd extends SolverTurnEnd {
  taskId: string;
}

/**
 * The conversation of one task, driven by the green agent in the solver's dialect: the task goes first,
 * then each turn's reply is read by the dialect, and a command it asks for runs in the sandbox and its
 * result goes back; a correction goes back as it is. A task waiting for input is continued; after a turn
 * that completed its task, the next message starts a new task on the same context. A solver that calls
 * back is served by the green agent's entry on the task's context meanwhile. Ends with why the solver's
 * side stopped; the task's own finish (a callback `[TASK FINISHED]`, the time limit, a shutdown) aborts it
 * through the context's hand-over signal.
 */
export class SolverConversation {
  /** The solver's A2A task as last seen: what `close` has to do about it. */
  private solverTask: { id: string; state: PeerTaskState } | undefined;
  /** The context the solver answers on: the task's own, or the one the solver opened. */
  private solverContext: string;
  /** Whether the solver ever answered: one that cannot be reached at all is the infrastructure's failure, not its own. */
  private heard = false;
  private dialect: SolverDialect;

  constructor(private readonly task: ConversationTask) {
    this.dialect = task.dialect;
    this.solverContext = task.dialect.onTaskContext ? task.context.contextId : '';
  }

  /** Runs the conversation; `describe` gives the task's description as the solver's dialect words it. */
  async run(describe: (dialect: DialectName) => string): Promise<FinishReason> {
    const { context, log } = this.task;
    let message = this.dialect.opening(describe(this.dialect.name));
    let continues: string | undefined;
    for (;;) {
      const dialect = this.dialect;
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
      const step = dialect.read(end);
      if (step.kind === 'finished') {
        context.solverExit = step.exit ?? context.solverExit;
        log('the solver finished the task');
        context.finish('finished');
        return 'finished';
      }
      if (step.kind === 'failed') {
        log(`solver failed: ${step.reason}`);
        return 'solver-failed';
      }
      if (step.kind === 'ended') {
        if (step.note) log(step.note);
        return 'solver-ended';
      }
      if (step.kind === 'restart') {
        message = await this.restart(step.dialect, describe);
        continues = undefined;
        continue;
      }
      message = step.kind === 'say' ? step.message : dialect.result(await this.task.execute(step.command, step.timeoutS));
      if (context.handover.signal.aborted) return 'solver-ended';
      continues = end.state === 'input-required' ? end.taskId : undefined;
    }
  }

  /**
   * Starts over in `dialect`: its opening goes on a new conversation (the task's context again, or none for
   * the solver to open), and the first one's task, if it still waits or works, is canceled.
   */
  private async restart(dialect: SolverDialect, describe: (dialect: DialectName) => string): Promise<string> {
    const abandoned = this.solverTask;
    this.dialect = dialect;
    this.solverTask = undefined;
    this.solverContext = dialect.onTaskContext ? this.task.context.contextId : '';
    if (abandoned && !isTerminalState(abandoned.state)) await this.task.solver.cancel(abandoned.id, { deadlineMs: CLOSE_DEADLINE_MS }).catch(() => undefined);
    return dialect.opening(describe(dialect.name));
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
    const { solver, log } = this.task;
    const options = { deadlineMs: CLOSE_DEADLINE_MS };
    const told =
      task.state === 'input-required' ? solver.sendText(this.solverContext, summary, { ...options, taskId: task.id }) : solver.cancel(task.id, options);
    await told.catch((error: Error) => log(`the solver was not told that its task is over: ${error.message}`));
  }

  /**
   * Sends one message and follows the solver's stream to its end; the last thing it said, if anything: its
   * last status message or reply, then the artifacts of its task, text parts as they are and data parts as
   * JSON (as terminal-bench-green's messenger reads them, src/messenger.py 84-91 and 128-140).
   */
  private async turn(message: string, continues: string | undefined): Promise<TurnEnd | undefined> {
    const { context, solver, trace } = this.task;
    const deadlineMs = Math.max(1, this.task.deadline - Date.now()) + TURN_GRACE_MS;
    // A task that is sent a message is at work on it, whatever it said last.
    if (continues) this.solverTask = { id: continues, state: 'working' };
    let end: TurnEnd | undefined;
    const artifacts: string[] = [];
    for await (const event of solver.streamText(this.solverContext, message, { deadlineMs, signal: context.handover.signal, taskId: continues })) {
      this.heard = true;
      this.solverContext = event.contextId || this.solverContext;
      if (event.kind === 'artifact') {
        artifacts.push(replyText(event));
        continue;
      }
      context.solverExit = parseSolverExit(event.data) ?? context.solverExit;
      if (event.kind === 'message') {
        end = { state: 'replied', text: replyText(event), taskId: '' };
        this.solverTask = undefined;
        continue;
      }
      this.solverTask = { id: event.taskId, state: event.state };
      if (event.text && event.state !== 'input-required') trace(`solver ${event.state}: ${textHead(event.text, SOLVER_TEXT_LOG_BYTES)}`);
      end = { state: event.state, text: replyText(event), taskId: event.taskId };
    }
    return end && { ...end, text: [end.text, ...artifacts].filter(Boolean).join('\n') };
  }
}

// An event's text parts, then its data parts as JSON; a solver's exit data is the run's account, not its reply.
function replyText(event: PeerEvent): string {
  const data = event.data.filter((item) => parseSolverExit([item]) === undefined).map((item) => JSON.stringify(item));
  return [event.text, ...data].filter(Boolean).join('\n');
}
