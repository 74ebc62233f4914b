import { parseAssessorReply } from '@arvo-rca/a2a-protocol';
import type { CommandResult } from '@arvo-rca/sandbox';

/**
 * What the green agent's answer to a command means for the agent: a result, or a refusal (both are
 * observations for the model). A closing summary or anything else means the green agent has stopped
 * serving the task, which ends the run.
 */
export function commandResultOf(answer: string): CommandResult {
  const reply = parseAssessorReply(answer);
  switch (reply.kind) {
    case 'result':
      return reply.result;
    case 'rejected':
      return { returncode: 1, output: `Command rejected: ${reply.reason}` };
    case 'completed':
      throw new Error('the green agent says the task is already completed');
    case 'other':
      throw new Error(`the green agent answered a command with an unexpected message: ${reply.text.slice(0, 200)}`);
  }
}
