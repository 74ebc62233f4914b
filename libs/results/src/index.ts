// The Result of an assessment and one task's record: types and the arithmetic over them, without the judge.
export { SOLVER_USAGE_FIELDS, type Nullable, type SolverUsage } from './lib/solver-usage';
export type { SolverExit } from './lib/solver-exit';
export { modelsUsage, reportedUsage, type ModelUsage, type TaskUsage } from './lib/model-usage';
export {
  asRootCause,
  metricsAt,
  noMetrics,
  SCALAR_METRICS,
  TASK_STATUSES,
  TOP_K_METRICS,
  TOP_KS,
  topKOf,
  withSolverExit,
  type LocalizationMetrics,
  type RootCauseMetrics,
  type ScalarMetric,
  type TaskErrorFields,
  type TaskMetrics,
  type TaskStatus,
  type TopK,
  type TopKMetric,
} from './lib/task-metrics';
export type { TaskDraw } from './lib/task-draw';
export { TASK_FORMAT, type TaskFiles, type TaskRecord, type TaskRecordDraft, type TaskRunFigures } from './lib/task-record';
export {
  aggregateResults,
  RESULT_DOMAIN,
  resultKeys,
  taskResult,
  WHOLE_LIST,
  type AssessmentResult,
  type ResultInput,
  type Shard,
  type TaskResult,
} from './lib/assessment-result';
export { columnValue, columnValues, METRIC_COLUMNS, type MetricColumn, type TopKKey } from './lib/metric-columns';
export { BOOTSTRAP, resultConfidence, type KeyedMetrics, type MeanIntervals, type ResultConfidence, type TopKIntervals } from './lib/result-confidence';
export { pairedComparison, type GradedRun, type PairedComparison, type PairedMetric, type TaskDifference } from './lib/paired-comparison';
