// The Result's `models` list: what each model cost, per task on average, in CyberGym's submission schema.
import { SOLVER_USAGE_FIELDS, usageBy, type Nullable, type SolverUsage } from './solver-usage';

/**
 * One entry of `models`: the model's name as the solver's card declares it (null when the card declares
 * none) and each usage field's mean per task, over the tasks run with that model whose solver reported
 * usage. `est_usd_cost` is null when the cost of any of those tasks is unknown: unknown is not free.
 */
export interface ModelUsage extends SolverUsage {
  name: string | null;
}

/** A task's usage as the Result keeps it (null each when the solver reported none), with the model that ran it. */
type TaskUsage = Nullable<SolverUsage> & { model: string | null };

/** Whether the solver reported usage for the task: every field is there, but for a cost it could not know. */
export function reportedUsage(task: Nullable<SolverUsage>): task is SolverUsage {
  return SOLVER_USAGE_FIELDS.every((field) => field === 'est_usd_cost' || task[field] !== null);
}

/** One entry per model, in the order the tasks first name it; a model none of whose tasks reported usage has none. */
export function modelsUsage(tasks: readonly TaskUsage[]): ModelUsage[] {
  const byModel = new Map<string | null, SolverUsage[]>();
  for (const task of tasks) if (reportedUsage(task)) byModel.set(task.model, [...(byModel.get(task.model) ?? []), task]);
  return [...byModel].map(([name, reported]) => ({ name, ...meanUsage(reported) }));
}

/** Each field's mean over the reports; a mean over a set with an unknown value in it is unknown. */
function meanUsage(reported: readonly SolverUsage[]): SolverUsage {
  const means = usageBy((field) => {
    const values = reported.map((usage) => usage[field]);
    if (values.some((value) => value === null)) return null;
    // Rounded so that means do not show float noise (0.30000000000000004).
    return Math.round((values.reduce((sum: number, value) => sum + (value ?? 0), 0) / values.length) * 1e6) / 1e6;
  });
  // Only the cost can be unknown in a report, so only its mean can be.
  return means as SolverUsage;
}
