import type { TaskMetrics } from '@arvo-rca/rca-eval';
import type { TaskEvidence } from '@arvo-rca/run-record';
import type { FinishReason, TaskContext } from './task-context';

/** What became of one task, scored. */
export interface TaskOutcome {
  taskKey: string;
  contextId: string;
  finishReason: FinishReason | 'error';
  metrics: TaskMetrics;
  commands: number;
  failedCommands: number;
  seconds: number;
  /** What the run record keeps of the task for the viewer. */
  evidence: TaskEvidence;
}

/** A task as far as it came: its context once its sandbox was made, its start once it began. */
export interface TaskSoFar {
  taskKey: string;
  /** Empty for a task that never started. */
  contextId: string;
  /** Epoch ms; none for a task that never started (0 seconds). */
  startedAt?: number;
  context?: TaskContext;
  evidence: TaskEvidence;
}

/** Nothing to show of a task that never started. */
export const NO_EVIDENCE: TaskEvidence = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: null };

/** The one way an outcome is made, whichever way the task ended: scored, failed, interrupted or never started. */
export function taskOutcome(task: TaskSoFar, finishReason: FinishReason | 'error', metrics: TaskMetrics): TaskOutcome {
  const { context } = task;
  return {
    taskKey: task.taskKey,
    contextId: task.contextId,
    finishReason,
    metrics,
    commands: context?.commands ?? 0,
    failedCommands: context?.failedCommands ?? 0,
    seconds: task.startedAt === undefined ? 0 : (Date.now() - task.startedAt) / 1000,
    evidence: { ...task.evidence, trajectory: context?.solverExit?.trajectory ?? null },
  };
}
