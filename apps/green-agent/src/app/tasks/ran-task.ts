import type { TaskMetrics, TaskRecordDraft } from '@arvo-rca/results';
import type { TaskEvidence } from '@arvo-rca/run-record';
import type { FinishReason, TaskContext } from './task-context';

/**
 * What one run of a task gave: its record but for the key the task has in the Result and the runs it took,
 * which whoever ran it knows (an assessment, or a task sent on its own).
 */
export type TaskOutcome = Omit<TaskRecordDraft, 'task' | 'run'> & { run: Omit<TaskRecordDraft['run'], 'attempts'> };

/** A task run to its end: what the run gave, and what the run record keeps of it for the viewer. */
export interface RanTask {
  outcome: TaskOutcome;
  evidence: TaskEvidence;
}

/** The task's record as the green agent makes it, once its key in the Result and its runs are known. */
export function taskRecordDraft(resultKey: string, outcome: TaskOutcome, attempts: number): TaskRecordDraft {
  return { task: resultKey, ...outcome, run: { ...outcome.run, attempts } };
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

/** The one way a task's run is told, whichever way it ended: scored, failed, interrupted or never started. */
export function ranTask(task: TaskSoFar, finishReason: FinishReason | 'error', metrics: TaskMetrics): RanTask {
  const { context } = task;
  const outcome: TaskOutcome = {
    task_id: task.taskId,
    masked_id: task.maskedId ?? null,
    context_id: task.contextId,
    finish_reason: finishReason,
    metrics,
    run: {
      seconds: task.startedAt === undefined ? 0 : (Date.now() - task.startedAt) / 1000,
      commands: context?.commands ?? 0,
      failed_commands: context?.failedCommands ?? 0,
    },
  };
  return { outcome, evidence: { ...task.evidence, trajectory: context?.solverExit?.trajectory ?? null } };
}
