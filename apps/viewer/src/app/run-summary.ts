import type { MeanIntervals, TaskRecord } from '@arvo-rca/results';
import { recordResult } from '@arvo-rca/run-record';
import type { OpenRecord } from './record-catalog';
import type { RunSummary, ScoreIntervals, TaskRow, TaskScores } from './viewer-api';

const MISSING = 'no result was recorded: the task was running, or had not started, when its session ended';

/** A record as a line of the runs table: who ran what, and the means of what is recorded so far. */
export function summarize({ location, scan }: OpenRecord): RunSummary {
  const { assessment } = scan;
  const result = recordResult(assessment, scan.done);
  const lastSession = assessment.sessions.at(-1);
  return {
    key: location.key,
    id: assessment.id,
    runDir: location.label,
    started_at: assessment.started_at,
    ended_at: lastSession?.ended_at ?? null,
    solver: { name: assessment.solver.name, version: assessment.solver.version, model: assessment.solver.model },
    assessor: { name: assessment.assessor.name, version: assessment.assessor.version },
    tasks: scan.resultKeys.length,
    recorded: scan.done.size,
    damaged: scan.damaged.length,
    missing: scan.missing.length,
    scored: result.n_scored,
    means: {
      file_acc: result.file_acc_mean,
      func_recall: result.func_recall_mean,
      func_precision: result.func_precision_mean,
      line_iou: result.line_iou_mean,
      line_proximity: result.line_proximity_mean,
      rc_file_acc: result.rc_file_acc_mean ?? null,
      rc_func_recall: result.rc_func_recall_mean ?? null,
      rc_func_precision: result.rc_func_precision_mean ?? null,
      rc_line_iou: result.rc_line_iou_mean ?? null,
      rc_line_proximity: result.rc_line_proximity_mean ?? null,
    },
    intervals: intervalsOf(result.confidence.intervals),
    // The record's one solver ran one model: its means per task, as the Result's `models` gives them.
    cost: result.models[0]?.est_usd_cost ?? null,
    seconds: result.time_used,
    tokens: { input: result.models[0]?.input_tokens ?? null, output: result.models[0]?.output_tokens ?? null },
  };
}

function intervalsOf(intervals: MeanIntervals): ScoreIntervals {
  return {
    file_acc: intervals.file_acc_mean,
    func_recall: intervals.func_recall_mean,
    func_precision: intervals.func_precision_mean,
    line_iou: intervals.line_iou_mean,
    line_proximity: intervals.line_proximity_mean,
    rc_file_acc: intervals.rc_file_acc_mean,
    rc_func_recall: intervals.rc_func_recall_mean,
    rc_func_precision: intervals.rc_func_precision_mean,
    rc_line_iou: intervals.rc_line_iou_mean,
    rc_line_proximity: intervals.rc_line_proximity_mean,
  };
}

/** Every task of the record in its requested order: recorded, damaged (with the reason) or missing. */
export function taskRows({ scan }: OpenRecord): TaskRow[] {
  const damaged = new Map(scan.damaged.map((task) => [task.task, task.reason]));
  return scan.resultKeys.map((resultKey) => {
    const file = scan.done.get(resultKey);
    if (file) return taskRow(file);
    const reason = damaged.get(resultKey);
    return { ...emptyRow(resultKey), ...(reason === undefined ? { status: 'missing', detail: MISSING } : { status: 'damaged', detail: reason }) };
  });
}

export function taskRow(file: TaskRecord): TaskRow {
  const { metrics, run } = file;
  return {
    task: file.task,
    status: metrics.status,
    detail: metrics.detail ?? null,
    scores: scoresOf(metrics),
    cost: metrics.est_usd_cost ?? null,
    seconds: run.seconds,
    steps: metrics.llm_requests ?? null,
    attempts: run.attempts,
  };
}

function scoresOf(metrics: TaskRecord['metrics']): TaskScores {
  const { file_acc, func_recall, func_precision, line_iou, line_proximity } = metrics;
  const rc = (value: number | null | undefined): number | null => value ?? null;
  return {
    file_acc,
    func_recall,
    func_precision,
    line_iou,
    line_proximity,
    rc_file_acc: rc(metrics.rc_file_acc),
    rc_func_recall: rc(metrics.rc_func_recall),
    rc_func_precision: rc(metrics.rc_func_precision),
    rc_line_iou: rc(metrics.rc_line_iou),
    rc_line_proximity: rc(metrics.rc_line_proximity),
  };
}

function emptyRow(task: string): Omit<TaskRow, 'status' | 'detail'> {
  const none = { file_acc: null, func_recall: null, func_precision: null, line_iou: null, line_proximity: null };
  const scores = { ...none, rc_file_acc: null, rc_func_recall: null, rc_func_precision: null, rc_line_iou: null, rc_line_proximity: null };
  return { task, scores, cost: null, seconds: null, steps: null, attempts: null };
}
