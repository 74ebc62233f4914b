import type { AssessmentResult, TaskResult, TaskUsage } from '@arvo-rca/rca-eval';

type MetricsRow = Partial<Record<'file_acc' | 'func_recall' | 'func_precision' | 'line_iou' | 'line_proximity', number | null>> & {
  func_topk_recall?: Record<string, number> | null;
  line_topk_recall?: Record<string, number> | null;
};

type UsageRow = { [K in keyof TaskUsage]: number | null };

const METRIC_COLUMNS: [string, (m: MetricsRow) => string][] = [
  ['file', (m) => num(m.file_acc)],
  ['func rec', (m) => num(m.func_recall)],
  ['func prec', (m) => num(m.func_precision)],
  ['line IoU', (m) => num(m.line_iou)],
  ['line prox', (m) => num(m.line_proximity)],
  ['func@1', (m) => num(m.func_topk_recall?.['1'])],
  ['func@3', (m) => num(m.func_topk_recall?.['3'])],
  ['line@1', (m) => num(m.line_topk_recall?.['1'])],
  ['line@3', (m) => num(m.line_topk_recall?.['3'])],
];

// What the solver said its run cost; the footer totals them over the tasks that reported any.
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

function count(value: number | null): string {
  return value === null ? '-' : String(Math.round(value));
}

/** The task's status, with the solver's own exit status when it ended other than by submitting (`no_submission (ModelError)`). */
function statusOf(metrics: TaskResult): string {
  const exit = metrics.solver_exit_status;
  return exit && exit !== 'Submitted' ? `${metrics.status} (${exit})` : metrics.status;
}

/** The per-task scores and usage, the means of the scores and the totals of the usage, as a plain-text table. */
export function formatResultsTable(result: AssessmentResult): string {
  const blanks = (columns: unknown[]): string[] => columns.map(() => '');
  const rows: string[][] = Object.entries(result.task_metrics).map(([task, metrics]) => [
    task,
    statusOf(metrics),
    ...METRIC_COLUMNS.map(([, cell]) => cell(metrics)),
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
  const meanRow = [`mean (${result.n_tasks})`, `${result.n_scored} scored`, ...METRIC_COLUMNS.map(([, cell]) => cell(means)), ...blanks(USAGE_COLUMNS)];
  const totalRow = ['total', '', ...blanks(METRIC_COLUMNS), ...USAGE_COLUMNS.map(([, cell]) => cell(result))];
  const table = [header, ...rows, meanRow, totalRow];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line), rule, line(meanRow), line(totalRow)].join('\n');
}
