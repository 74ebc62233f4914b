import { recordResult, type TaskFile } from '@arvo-rca/run-record';
import type { OpenRecord } from './record-catalog';
import type { RunSummary, TaskRow, TaskScores } from './viewer-api';

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
    tasks: scan.keys.length,
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
    },
    cost: result.est_usd_cost,
    seconds: result.time_used,
    tokens: { input: result.input_tokens, output: result.output_tokens },
  };
}

/** Every task of the record in its requested order: recorded, damaged (with the reason) or missing. */
export function taskRows({ scan }: OpenRecord): TaskRow[] {
  const damaged = new Map(scan.damaged.map((task) => [task.task, task.reason]));
  return scan.keys.map((key) => {
    const file = scan.done.get(key);
    if (file) return taskRow(file);
    const reason = damaged.get(key);
    return { ...emptyRow(key), ...(reason === undefined ? { status: 'missing', detail: MISSING } : { status: 'damaged', detail: reason }) };
  });
}

export function taskRow(file: TaskFile): TaskRow {
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

function scoresOf(metrics: TaskFile['metrics']): TaskScores {
  const { file_acc, func_recall, func_precision, line_iou, line_proximity } = metrics;
  return { file_acc, func_recall, func_precision, line_iou, line_proximity };
}

function emptyRow(task: string): Omit<TaskRow, 'status' | 'detail'> {
  return { task, scores: { file_acc: null, func_recall: null, func_precision: null, line_iou: null, line_proximity: null }, cost: null, seconds: null, steps: null, attempts: null };
}
