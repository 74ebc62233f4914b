import { formatExecute, parseAssessorReply, TASK_FINISHED, type A2aPeer } from '@arvo-rca/a2a-protocol';
import type { CommandResult, TaskEnvironment } from '../agent/task-environment';

/**
 * The environment of a task is the green agent: each command goes as `execute: <command>` on the
 * task's context id, and the reply is read back with the shared vocabulary. A refused command is
 * an observation for the model; an unreachable or failing green agent ends the run.
 */
export class GreenTaskEnvironment implements TaskEnvironment {
  constructor(
    private readonly green: A2aPeer,
    private readonly contextId: string,
    private readonly deadlineMs: number,
  ) {}

  async execute(command: string): Promise<CommandResult> {
    const reply = parseAssessorReply(await this.send(formatExecute(command)));
    switch (reply.kind) {
      case 'result':
        return { returncode: reply.result.returncode, output: reply.result.output, timedOut: reply.result.error !== undefined };
      case 'rejected':
        return { returncode: 1, output: `Command rejected: ${reply.reason}` };
      case 'completed':
        throw new Error('the green agent says the task is already completed');
      case 'other':
        throw new Error(`the green agent answered a command with an unexpected message: ${reply.text.slice(0, 200)}`);
    }
  }

  async finish(): Promise<void> {
    await this.send(TASK_FINISHED);
  }

  private send(text: string): Promise<string> {
    return this.green.sendText(this.contextId, text, { deadlineMs: this.deadlineMs });
  }
}
