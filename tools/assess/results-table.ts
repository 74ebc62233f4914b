import type { AssessmentResult, TaskMetrics } from '@arvo-rca/rca-eval';

const COLUMNS: [string, (m: MetricsRow) => string][] = [
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

type MetricsRow = Partial<Record<'file_acc' | 'func_recall' | 'func_precision' | 'line_iou' | 'line_proximity', number | null>> & {
  func_topk_recall?: Record<string, number> | null;
  line_topk_recall?: Record<string, number> | null;
};

function num(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : value.toFixed(2);
}

/** The task's status, with the solver's own exit status when it ended other than by submitting (`no_submission (ModelError)`). */
function statusOf(metrics: TaskMetrics): string {
  const exit = metrics.solver_exit_status;
  return exit && exit !== 'Submitted' ? `${metrics.status} (${exit})` : metrics.status;
}

/** The per-task scores and the means, as a plain-text table. */
export function formatResultsTable(result: AssessmentResult): string {
  const rows: string[][] = Object.entries(result.task_metrics).map(([task, metrics]: [string, TaskMetrics]) => [
    task,
    statusOf(metrics),
    ...COLUMNS.map(([, cell]) => cell(metrics as MetricsRow)),
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
  const header = ['task', 'status', ...COLUMNS.map(([name]) => name)];
  const footer = [`mean (${result.n_tasks})`, `${result.n_scored} scored`, ...COLUMNS.map(([, cell]) => cell(means))];
  const table = [header, ...rows, footer];
  const widths = header.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const line = (row: string[]): string => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line), rule, line(footer)].join('\n');
}
