import { formatExecute, TASK_FINISHED, type A2aPeer } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';
import type { TaskEnvironment } from '../agent/task-environment';
import { commandResultOf } from './assessor-answer';

/**
 * The callback dialect: the agent calls the green agent back. Each command goes as `execute: <command>` on
 * the task's context id, and the answer is read back with the shared vocabulary. A refused command is
 * an observation for the model; an unreachable or failing green agent ends the run.
 */
export class GreenTaskEnvironment implements TaskEnvironment {
  constructor(
    private readonly green: A2aPeer,
    private readonly contextId: string,
    private readonly deadlineMs: number,
  ) {}

  async execute(command: string): Promise<CommandResult> {
    return commandResultOf(await this.send(formatExecute(command)));
  }

  async finish(): Promise<void> {
    await this.send(TASK_FINISHED);
  }

  private send(text: string): Promise<string> {
    return this.green.sendText(this.contextId, text, { deadlineMs: this.deadlineMs });
  }
}
