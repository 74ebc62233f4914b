// The Result of an assessment and one task's record: types and the arithmetic over them, without the judge.
export { SOLVER_USAGE_FIELDS, type Nullable, type SolverUsage } from './lib/solver-usage';
export type { SolverExit } from './lib/solver-exit';
export {
  asRootCause,
  TASK_STATUSES,
  TOP_KS,
  topKOf,
  withSolverExit,
  type LocalizationMetrics,
  type TaskErrorFields,
  type TaskMetrics,
  type TaskStatus,
  type TopK,
} from './lib/task-metrics';
export type { TaskDraw } from './lib/task-draw';
export { TASK_FORMAT, type TaskFiles, type TaskRecord, type TaskRecordDraft } from './lib/task-record';
export { aggregateResults, resultKeys, WHOLE_LIST, type AssessmentResult, type ResultInput, type Shard, type TaskResult } from './lib/assessment-result';
export { SCALAR_METRICS, type ScalarMetric, type TopKMetric } from './lib/metric-columns';
export { type MeanIntervals } from './lib/result-confidence';
export { pairedComparison, type PairedComparison, type PairedMetric, type TaskDifference } from './lib/paired-comparison';
