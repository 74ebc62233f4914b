import type { TaskMetrics, TaskRecordDraft } from '@arvo-rca/results';
import type { TaskEvidence } from '@arvo-rca/run-record';
import type { FinishReason, TaskContext } from './task-context';

/** A task run to its end: its record as the green agent makes it, and what the run record keeps of it for the viewer. */
export interface RanTask {
  record: TaskRecordDraft;
  evidence: TaskEvidence;
}

/** A task as far as it came: its context once its sandbox was made, its start once it began. */
export interface TaskSoFar {
  taskId: string;
  /** The masked id the solver was given instead of `taskId`, when ids are hidden from it. */
  maskedId?: string;
  /** Empty for a task that never started. */
  contextId: string;
  /** Epoch ms; none for a task that never started (0 seconds). */
  startedAt?: number;
  context?: TaskContext;
  evidence: TaskEvidence;
}

/** Nothing to show of a task that never started. */
export const NO_EVIDENCE: TaskEvidence = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: null };

/**
 * The one way a task's record is made, whichever way the task ended: scored, failed, interrupted or never
 * started. It ran once; an assessment counts its attempts and keys it in the Result.
 */
export function ranTask(task: TaskSoFar, finishReason: FinishReason | 'error', metrics: TaskMetrics): RanTask {
  const { context } = task;
  const record: TaskRecordDraft = {
    task: task.taskId,
    task_id: task.taskId,
    masked_id: task.maskedId ?? null,
    context_id: task.contextId,
    finish_reason: finishReason,
    metrics,
    run: {
      seconds: task.startedAt === undefined ? 0 : (Date.now() - task.startedAt) / 1000,
      commands: context?.commands ?? 0,
      failed_commands: context?.failedCommands ?? 0,
      attempts: 1,
    },
  };
  return { record, evidence: { ...task.evidence, trajectory: context?.solverExit?.trajectory ?? null } };
}
