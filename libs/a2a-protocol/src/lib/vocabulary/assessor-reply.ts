import type { CommandResult } from '@arvo-rca/sandbox';
import { parseCommandResult } from './command-result';

// Green → purple answers to a solver's messages: a command result, a refusal, or the closing summary
//   Command rejected: <reason>
//   [TASK COMPLETED] Commands executed: N, Failed: M, Time: Xs

const COMMAND_REJECTED_PREFIX = 'Command rejected:';
const TASK_COMPLETED = '[TASK COMPLETED]';
/** Why a solver's message on a context with no running task is refused: the task is unknown or over. */
export const NO_RUNNING_TASK = 'no running task has this context id (unknown or finished)';

interface TaskSummary {
  commandsExecuted: number;
  failed: number;
  timeSeconds: number;
}

export type AssessorReply =
  | { kind: 'result'; result: CommandResult }
  | { kind: 'rejected'; reason: string }
  | { kind: 'completed'; summary: TaskSummary }
  | { kind: 'other'; text: string };

const SUMMARY = /^\[TASK COMPLETED\] Commands executed: (\d+), Failed: (\d+), Time: (\d+(?:\.\d+)?)s/;

export function formatCommandRejected(reason: string): string {
  return `${COMMAND_REJECTED_PREFIX} ${reason}`;
}

export function parseCommandRejected(text: string): string | undefined {
  const trimmed = text.trimStart();
  return trimmed.startsWith(COMMAND_REJECTED_PREFIX) ? trimmed.slice(COMMAND_REJECTED_PREFIX.length).trim() : undefined;
}

export function formatTaskCompleted(summary: TaskSummary): string {
  return `${TASK_COMPLETED} Commands executed: ${summary.commandsExecuted}, Failed: ${summary.failed}, Time: ${summary.timeSeconds.toFixed(1)}s`;
}

export function parseTaskCompleted(text: string): TaskSummary | undefined {
  const match = SUMMARY.exec(text.trim());
  if (!match) return undefined;
  return { commandsExecuted: Number(match[1]), failed: Number(match[2]), timeSeconds: Number(match[3]) };
}

/** What a green agent's reply says, for a solver deciding its next step. */
export function parseAssessorReply(text: string): AssessorReply {
  const result = parseCommandResult(text);
  if (result) return { kind: 'result', result };
  const reason = parseCommandRejected(text);
  if (reason !== undefined) return { kind: 'rejected', reason };
  const summary = parseTaskCompleted(text);
  if (summary) return { kind: 'completed', summary };
  return { kind: 'other', text };
}
