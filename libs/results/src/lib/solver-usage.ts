// What a solver's run cost, as it reported it: the one usage shape of both agents, the wire and the Result.

/** A solver's usage under CyberGym's per-task submission names. */
export interface SolverUsage {
  input_tokens: number;
  cache_read_tokens: number;
  cache_creation_tokens: number;
  output_tokens: number;
  /** USD; null when the model has no known price (unknown is not free). */
  est_usd_cost: number | null;
  time_cost_sec: number;
  llm_requests: number;
}

/** The usage fields in CyberGym's order. */
export const SOLVER_USAGE_FIELDS = [
  'input_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'output_tokens',
  'est_usd_cost',
  'time_cost_sec',
  'llm_requests',
] as const satisfies readonly (keyof SolverUsage)[];

export type Nullable<T> = { [K in keyof T]: T[K] | null };

/** Each usage field, in CyberGym's order, from `value`. */
export function usageBy<V>(value: (field: keyof SolverUsage) => V): { [K in keyof SolverUsage]: V } {
  return Object.fromEntries(SOLVER_USAGE_FIELDS.map((field) => [field, value(field)])) as { [K in keyof SolverUsage]: V };
}
