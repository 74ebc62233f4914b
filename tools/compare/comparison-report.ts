// The comparison as the terminal shows it: the two records, then per metric the means, the difference
// B - A with its paired-bootstrap interval and, for the top-k hits, McNemar's exact test; then the tasks that differ.
import { SCALAR_METRICS, type PairedComparison, type PairedMetric, type TaskDifference } from '@arvo-rca/results';
import type { RecordScan } from '@arvo-rca/run-record';

const HEADER = ['metric', 'A', 'B', 'B - A', '95% interval', 'A only', 'B only', 'McNemar p'];

export function formatComparison(a: RecordScan, b: RecordScan, comparison: PairedComparison): string {
  const rows = comparison.metrics.map(metricRow);
  const table = [HEADER, ...rows];
  const widths = HEADER.map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const line = (row: string[]): string =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column])))
      .join('  ')
      .trimEnd();
  const resamples = comparison.resamples.toLocaleString('en');
  return [
    `A  ${describeRecord(a)}`,
    `B  ${describeRecord(b)}`,
    '',
    `${comparison.n_paired} task(s) graded in both runs (${comparison.n_rc_paired} with root-cause spans); only in A: ${listed(comparison.only_in_a)}; only in B: ${listed(comparison.only_in_b)}`,
    `B - A with its ${comparison.level * 100}% paired-bootstrap interval (${resamples} resamples of the tasks, seed ${comparison.seed}, ${comparison.prng});`,
    "McNemar's exact test on the top-k hits (a hit: the top k hold a span of the fix), A only and B only the discordant tasks.",
    '',
    line(HEADER),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
    '',
    ...differingLines(comparison),
  ].join('\n');
}

function describeRecord({ assessment, done, resultKeys, folder }: RecordScan): string {
  const { solver } = assessment;
  return `${assessment.id}: ${solver.name} ${solver.version}${solver.model ? `, model ${solver.model}` : ''}; ${done.size} of ${resultKeys.length} tasks recorded (${folder})`;
}

function metricRow(metric: PairedMetric): string[] {
  const interval = metric.interval ? `[${signed(metric.interval[0])}, ${signed(metric.interval[1])}]` : '-';
  const test = metric.mcnemar;
  return [
    metric.metric,
    metric.a_mean.toFixed(3),
    metric.b_mean.toFixed(3),
    signed(metric.difference),
    interval,
    test ? String(test.a_only) : '',
    test ? String(test.b_only) : '',
    test ? pValue(test.p_value) : '',
  ];
}

function differingLines(comparison: PairedComparison): string[] {
  const { differing } = comparison;
  if (differing.length === 0) return ['No task scores differently in the two runs.'];
  return [
    `Tasks that score differently (${differing.length} of ${comparison.n_paired}):`,
    ...differing.map(({ task, changes }) => `  ${task}  ${changesText(changes)}`),
  ];
}

// The scalar parity metrics that changed (the others follow them, mostly); all changes when only those others did. --json has every one.
function changesText(changes: TaskDifference['changes']): string {
  const scalars = changes.filter((change) => !change.metric.startsWith('rc_') && !change.metric.includes('['));
  const shown = (scalars.length > 0 ? scalars : changes).slice(0, SCALAR_METRICS.length);
  const more = changes.length - shown.length;
  return `${shown.map((change) => `${change.metric} ${short(change.a)} → ${short(change.b)}`).join(', ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}

function signed(value: number): string {
  // -0.000 reads as a difference where there is none.
  const text = value.toFixed(3);
  return Number(text) === 0 ? '0.000' : value > 0 ? `+${text}` : text;
}

function short(value: number): string {
  if (Number.isInteger(value)) return String(value);
  // A proximity far off is small but not zero: 0.00 would say it was.
  return value < 0.01 ? value.toExponential(1) : value.toFixed(2);
}

function pValue(p: number): string {
  return p >= 0.001 ? p.toPrecision(3) : p.toExponential(1);
}

function listed(tasks: readonly string[]): string {
  return tasks.length === 0 ? 'none' : tasks.join(', ');
}
