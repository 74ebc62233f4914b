// The JSON the viewer's API answers with. The page's modules read these types through JSDoc, so this
// file imports types only: it is the one contract between the server and the page, and takes the metrics'
// names and the paired comparison's shape from the results library that defines them.
import type { PairedComparison, PairedMetric, ScalarMetric, TaskStatus } from '@arvo-rca/results';

/** A status of the Result, or what the record says of a task that has no usable result. */
export type CellStatus = TaskStatus | 'damaged' | 'missing';

/** A score a cell can show: a scalar metric, or the same against the root-cause spans only (no test, harness or added files). */
export type ScoreName = ScalarMetric | `rc_${ScalarMetric}`;

/** The scores a cell can show; null when the task has none (not scored, no ground truth, or a record from before the `rc_` ones). */
export type TaskScores = { [K in ScoreName]: number | null };

/** A 95% interval: [low, high]. */
export type Interval = [number, number];

/** Each mean's interval, as the Result's `confidence` gives it; null over no task. */
export type ScoreIntervals = { [K in ScoreName]: Interval | null };

/** One task of a record, as a row of the comparison. */
export interface TaskRow {
  task: string;
  status: CellStatus;
  /** Why the task was not scored normally, or why its record cannot be used. */
  detail: string | null;
  scores: TaskScores;
  cost: number | null;
  seconds: number | null;
  /** Model calls the solver reported. */
  steps: number | null;
  attempts: number | null;
}

/** One record (an assessment) in the list of runs. */
export interface RunSummary {
  /** How the API names the record: its id, with `~2` ... when two run directories hold the same id. */
  key: string;
  id: string;
  /** The run directory that holds it, as given on the command line. */
  runDir: string;
  started_at: string;
  /** When its last session ended by itself; null while it runs, or when it was killed. */
  ended_at: string | null;
  solver: { name: string; version: string; model: string | null };
  assessor: { name: string; version: string };
  tasks: number;
  recorded: number;
  damaged: number;
  missing: number;
  scored: number;
  /** Means over the recorded tasks, as the Result gives them. */
  means: TaskScores;
  /** Their 95% intervals: percentile bootstrap over the tasks (the Result's `confidence`). */
  intervals: ScoreIntervals;
  /** USD and tokens per task, over the tasks that reported usage (the Result's `models`); null when none did, or the cost is unknown. */
  cost: number | null;
  seconds: number;
  tokens: { input: number | null; output: number | null };
}

export interface RunList {
  runs: RunSummary[];
  /** Records that could not be read at all, with the reason. */
  unreadable: { folder: string; reason: string }[];
}

export interface Comparison {
  runs: { summary: RunSummary; tasks: TaskRow[] }[];
  /** With exactly two runs: the first (A) against the second (B), task by task; null otherwise. */
  paired: PairedView | null;
}

/** One metric of the paired comparison: `line_iou`, `func_topk_recall[1]`, `rc_line_iou` ... */
export type PairedScore = PairedMetric;

/** Two runs compared on the tasks both graded (the run record's comparison), or why they are not: they were scored under other settings. */
export type PairedView = ({ kind: 'compared' } & PairedComparison) | { kind: 'refused'; reason: string };

/** Lines of a file around the fix and the solver's answer, with both marked. */
export interface SourceExcerpt {
  path: string;
  start: number;
  lines: string[];
  fix: { start: number; end: number }[];
  predicted: { start: number; end: number; rank: number }[];
}

export type FileState = 'present' | 'none' | 'outside' | 'missing';

export interface TaskPage {
  run: RunSummary;
  row: TaskRow;
  task_id: string;
  /** The masked id the solver was given instead of the task id; null when it saw the real one. */
  masked_id: string | null;
  context_id: string;
  finished_at: string;
  /** The whole `metrics` of the task's record (top-k recalls, usage, the solver's exit). */
  metrics: Record<string, unknown>;
  crash_report: string | null;
  fix: string | null;
  submission: string | null;
  sources: SourceExcerpt[] | null;
  /** Whether the trajectory and the log can be loaded: `outside` when the record points out of the run directories. */
  trajectory: FileState;
  log: FileState;
  /** Neighbours in the record's task order, for stepping through tasks. */
  previous: string | null;
  next: string | null;
}

export interface TrajectoryStep {
  /** 1 for the first model call. */
  index: number;
  thought: string;
  /** The one bash block of the reply; null when the reply had none or several. */
  command: string | null;
  /** What the solver was shown next: the command's output, or a correction. */
  output: string | null;
  returncode: number | null;
  tokens: { input: number; output: number; cache_read: number; cache_write: number } | null;
  cost: number | null;
}

export interface TrajectoryView {
  model: string | null;
  exit_status: string | null;
  /** The task as the solver was given it. */
  instance: string | null;
  steps: TrajectoryStep[];
  /** The message after the last step (how the run ended), when there is one. */
  closing: string | null;
  cost: number | null;
  tokens: { input: number; output: number } | null;
}

export interface TaskLog {
  /** The lines of this task's context; the whole file when none carries it. */
  text: string;
  context: string;
  lines: number;
  total_lines: number;
  /** The file was longer than the viewer reads: only its end is shown. */
  cut: boolean;
}

export interface ApiError {
  error: string;
  message: string;
}
