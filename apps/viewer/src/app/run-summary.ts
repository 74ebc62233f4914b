import { SCALAR_METRICS, type TaskRecord } from '@arvo-rca/results';
import { recordResult } from '@arvo-rca/run-record';
import type { OpenRecord } from './record-catalog';
import type { RunSummary, ScoreName, TaskRow } from './viewer-api';

const SCORE_NAMES: readonly ScoreName[] = [...SCALAR_METRICS, ...SCALAR_METRICS.map((name) => `rc_${name}` as const)];

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
    means: byScore((name) => result[`${name}_mean`] ?? null),
    intervals: byScore((name) => result.confidence.intervals[`${name}_mean`]),
    // The record's one solver ran one model: its means per task, as the Result's `models` gives them.
    cost: result.models[0]?.est_usd_cost ?? null,
    seconds: result.time_used,
    tokens: { input: result.models[0]?.input_tokens ?? null, output: result.models[0]?.output_tokens ?? null },
  };
}

/** Each score's value, in the metrics' order. */
function byScore<V>(value: (name: ScoreName) => V): { [K in ScoreName]: V } {
  return Object.fromEntries(SCORE_NAMES.map((name) => [name, value(name)])) as { [K in ScoreName]: V };
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
    // A record from before the root-cause metrics has none of them.
    scores: byScore((name) => metrics[name] ?? null),
    cost: metrics.est_usd_cost ?? null,
    seconds: run.seconds,
    steps: metrics.llm_requests ?? null,
    attempts: run.attempts,
  };
}

function emptyRow(task: string): Omit<TaskRow, 'status' | 'detail'> {
  return { task, scores: byScore(() => null), cost: null, seconds: null, steps: null, attempts: null };
}
