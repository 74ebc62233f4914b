import type { AssessmentResult, MeanIntervals, ScalarMetric, TaskResult, SolverUsage, TopKMetric } from '@arvo-rca/results';

/** A row of metric values (a task's, the means, or the means' intervals), under the metrics' plain names. */
type MetricsOf<V> = Partial<Record<ScalarMetric, V | null>> & Partial<Record<TopKMetric, Partial<Record<string, V | null>> | null>>;
type MetricsRow = MetricsOf<number>;
type Interval = [number, number];

type UsageRow = { [K in keyof SolverUsage]: number | null };

const METRIC_COLUMNS: [label: string, metric: ScalarMetric | TopKMetric, k?: string][] = [
  ['file', 'file_acc'],
  ['func rec', 'func_recall'],
  ['func prec', 'func_precision'],
  ['line IoU', 'line_iou'],
  ['line prox', 'line_proximity'],
  ['func@1', 'func_topk_recall', '1'],
  ['func@3', 'func_topk_recall', '3'],
  ['line@1', 'line_topk_recall', '1'],
  ['line@3', 'line_topk_recall', '3'],
];

function metricCells<V>(row: MetricsOf<V>, show: (value: V | null | undefined) => string): string[] {
  return METRIC_COLUMNS.map(([, metric, k]) => {
    const value = row[metric];
    return show(k === undefined ? (value as V | null | undefined) : (value as Partial<Record<string, V | null>> | null | undefined)?.[k]);
  });
}

// What the solver said its run cost; the footer gives each model's means per task (the Result's `models`).
const USAGE_COLUMNS: [string, (u: UsageRow) => string][] = [
  ['tok in', (u) => count(u.input_tokens)],
  ['tok cached', (u) => count(u.cache_read_tokens)],
  ['tok out', (u) => count(u.output_tokens)],
  ['USD', (u) => (u.est_usd_cost === null ? '-' : u.est_usd_cost.toFixed(4))],
  ['calls', (u) => count(u.llm_requests)],
];

function num(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(2);
}

// `0.12–0.48`: as wide as the columns' names, so the table keeps its width.
function interval(value: Interval | null | undefined): string {
  return value === null || value === undefined ? '-' : `${value[0].toFixed(2)}–${value[1].toFixed(2)}`;
}

/** The Result's intervals of the parity means, or of the root-cause ones, under the metrics' plain names. */
function intervalsRow(intervals: MeanIntervals, rootCause: boolean): MetricsOf<Interval> {
  if (rootCause)
    return {
      file_acc: intervals.rc_file_acc_mean,
      func_recall: intervals.rc_func_recall_mean,
      func_precision: intervals.rc_func_precision_mean,
      line_iou: intervals.rc_line_iou_mean,
      line_proximity: intervals.rc_line_proximity_mean,
      func_topk_recall: intervals.rc_func_topk_recall_mean,
      line_topk_recall: intervals.rc_line_topk_recall_mean,
    };
  return {
    file_acc: intervals.file_acc_mean,
    func_recall: intervals.func_recall_mean,
    func_precision: intervals.func_precision_mean,
    line_iou: intervals.line_iou_mean,
    line_proximity: intervals.line_proximity_mean,
    func_topk_recall: intervals.func_topk_recall_mean,
    line_topk_recall: intervals.line_topk_recall_mean,
  };
}

function count(value: number | null): string {
  return value === null ? '-' : String(Math.round(value));
}

/** The task's status, with the solver's own exit status when it ended other than by submitting (`no_submission (ModelError)`). */
function statusOf(metrics: TaskResult): string {
  const exit = metrics.solver_exit_status;
  return exit && exit !== 'Submitted' ? `${metrics.status} (${exit})` : metrics.status;
}

/**
 * The per-task scores and usage, the means of the scores and each model's usage per task, as a plain-text table;
 * below it, in the same columns, each task's root-cause scores (`rc_*`) and their means. A second block
 * rather than more columns: the table stays as wide as it was, and a task's two scores sit in one column.
 */
export function formatResultsTable(result: AssessmentResult): string {
  const blanks = (columns: unknown[]): string[] => columns.map(() => '');
  const rows: string[][] = Object.entries(result.task_metrics).map(([task, metrics]) => [
    task,
    statusOf(metrics),
    ...metricCells(metrics, num),
    ...USAGE_COLUMNS.map(([, cell]) => cell(metrics)),
  ]);
  const means: MetricsRow = {
    file_acc: result.file_acc_mean,
    func_recall: result.func_recall_mean,
    func_precision: result.func_precision_mean,
    line_iou: result.line_iou_mean,
    line_proximity: result.line_proximity_mean,
    func_topk_recall: result.func_topk_recall_mean,
    line_topk_recall: result.line_topk_recall_mean,
  };
  const header = ['task', 'status', ...METRIC_COLUMNS.map(([name]) => name), ...USAGE_COLUMNS.map(([name]) => name)];
  const meanRow = [`mean (${result.n_tasks})`, `${result.n_scored} scored`, ...metricCells(means, num), ...blanks(USAGE_COLUMNS)];
  const intervalRow = [
    `${result.confidence.level * 100}% interval`,
    '',
    ...metricCells(intervalsRow(result.confidence.intervals, false), interval),
    ...blanks(USAGE_COLUMNS),
  ];
  const usageRows = usageMeanRows(result, blanks(METRIC_COLUMNS));
  const rootCause = rootCauseBlock(result);
  const table = [header, ...rows, meanRow, intervalRow, ...usageRows, rootCause.header, ...rootCause.rows, rootCause.meanRow, rootCause.intervalRow];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const scoresRule = widths
    .slice(0, 2 + METRIC_COLUMNS.length)
    .map((width) => '-'.repeat(width))
    .join('  ');
  return [
    ...[line(header), rule, ...rows.map(line), rule, line(meanRow), line(intervalRow), ...usageRows.map(line)],
    ...['', line(rootCause.header), scoresRule, ...rootCause.rows.map(line), scoresRule, line(rootCause.meanRow), line(rootCause.intervalRow)],
    '',
    intervalsNote(result),
  ].join('\n');
}

/** A row per model of its usage per task, over the tasks that reported usage; dashes when none did. */
function usageMeanRows(result: AssessmentResult, metricBlanks: string[]): string[][] {
  const label = `per task (${result.n_with_usage})`;
  const rows = result.models.map((model) => [label, model.name ?? '(unnamed model)', ...metricBlanks, ...USAGE_COLUMNS.map(([, cell]) => cell(model))]);
  return rows.length > 0 ? rows : [[label, '', ...metricBlanks, ...USAGE_COLUMNS.map(() => '-')]];
}

/**
 * The root-cause rows: each task's root-cause spans out of all its spans (its status when it has no ground
 * truth, or broke before it was known) and its `rc_*` scores, and their means.
 */
function rootCauseBlock(result: AssessmentResult): { header: string[]; rows: string[][]; meanRow: string[]; intervalRow: string[] } {
  const blanks = USAGE_COLUMNS.map(() => '');
  const rows = Object.entries(result.task_metrics).map(([task, metrics]) => [
    task,
    metrics.n_gt > 0 ? `${metrics.rc_n_gt ?? '-'} of ${metrics.n_gt}` : metrics.status,
    ...metricCells(rootCauseOf(metrics), num),
    ...blanks,
  ]);
  const means: MetricsRow = {
    file_acc: result.rc_file_acc_mean,
    func_recall: result.rc_func_recall_mean,
    func_precision: result.rc_func_precision_mean,
    line_iou: result.rc_line_iou_mean,
    line_proximity: result.rc_line_proximity_mean,
    func_topk_recall: result.rc_func_topk_recall_mean,
    line_topk_recall: result.rc_line_topk_recall_mean,
  };
  const graded = result.n_tasks - result.rc_n_without_ground_truth;
  return {
    header: ['root cause', 'spans', ...METRIC_COLUMNS.map(([name]) => name), ...blanks],
    rows,
    meanRow: [`rc mean (${graded})`, '', ...metricCells(means, num), ...blanks],
    intervalRow: [`${result.confidence.level * 100}% interval`, '', ...metricCells(intervalsRow(result.confidence.intervals, true), interval), ...blanks],
  };
}

/** How the intervals were drawn, so that a reader can draw them again. */
function intervalsNote({ confidence }: AssessmentResult): string {
  const { resamples, seed, prng } = confidence;
  return `Intervals: percentile bootstrap over the tasks (failed ones as zeros), ${resamples.toLocaleString('en')} resamples, seed ${seed} (${prng}).`;
}

/** A task's `rc_*` scores under the plain names the columns read. */
function rootCauseOf(metrics: TaskResult): MetricsRow {
  return {
    file_acc: metrics.rc_file_acc,
    func_recall: metrics.rc_func_recall,
    func_precision: metrics.rc_func_precision,
    line_iou: metrics.rc_line_iou,
    line_proximity: metrics.rc_line_proximity,
    func_topk_recall: metrics.rc_func_topk_recall,
    line_topk_recall: metrics.rc_line_topk_recall,
  };
}
