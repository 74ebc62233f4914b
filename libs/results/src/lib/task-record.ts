// One task's record: what the green agent made of a task, as the run record keeps it in the task's
// `task.json` (`result.json` in records made before), snake_case all the way down; the task's entry in the Result is derived from it.
import type { TaskMetrics } from './task-metrics';

export const TASK_FORMAT = 'arvo-rca-task-2';

/** What the green agent saw of a task's run: its wall time and the commands it ran for the solver. */
interface TaskRunFigures {
  seconds: number;
  commands: number;
  /** Commands that did not return 0. */
  failed_commands: number;
  /** How many times the green agent ran the task: more than 1 when an infrastructure failure was retried. */
  attempts: number;
}

/** Files of a task inside the record, relative to the run directory; null when there is none. */
export interface TaskFiles {
  /** `trajectory.json` in the task's folder; in records made before, or from a solver that sent none, where the solver wrote it. */
  trajectory: string | null;
  log: string | null;
  crash_report: string | null;
  fix: string | null;
  submission: string | null;
  sources: string | null;
}

export interface TaskRecord {
  format: typeof TASK_FORMAT;
  /** The task's key in the Result: its id, or `<id>#2` for the same id requested again. */
  task: string;
  task_id: string;
  /** The masked id the solver was given instead of `task_id` (MASK_TASK_IDS); null when it saw the real one. */
  masked_id: string | null;
  context_id: string;
  /**
   * How the task's run ended: `finished`, `solver-ended`, `solver-failed`, `timeout`, `disk-limit`,
   * `shutdown`, `canceled`, or `error` when it broke; null in records written before it was kept.
   */
  finish_reason: string | null;
  /** The judge's metrics, the solver's exit and usage, and for a failed task its reason and error code. */
  metrics: TaskMetrics;
  run: TaskRunFigures;
  /** The session (index into the assessment's `sessions`) that ran it, and when it ended. */
  session: number;
  finished_at: string;
  files: TaskFiles;
}

/** A record as the green agent makes it: the run record adds the session, the time and the files as it writes it. */
export type TaskRecordDraft = Omit<TaskRecord, 'format' | 'session' | 'finished_at' | 'files'>;
