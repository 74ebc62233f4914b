import { failedTask, scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import { aggregateResults, withSolverExit } from '@arvo-rca/results';
import { formatResultsTable } from './results-table';

const TRUTH: GroundTruth = {
  spans: [{ file: 'src/index.c', function: 'index_span', vulSpan: { start: 64, end: 70 }, fixSpan: { start: 64, end: 71 }, change: 'modified' }],
  project: 'tlvkit',
  notes: [],
};
const usage = (input: number, cost: number | null) => ({
  input_tokens: input,
  cache_read_tokens: 100,
  cache_creation_tokens: 0,
  output_tokens: 50,
  est_usd_cost: cost,
  time_cost_sec: 9,
  llm_requests: 3,
});

function cells(line: string): string[] {
  return line.split(/\s{2,}/);
}

describe('the results table', () => {
  const result = aggregateResults(
    [
      {
        task_id: 'sample:1',
        model: 'openai/gpt-4.1',
        metrics: withSolverExit(scoreSubmission(null, TRUTH), { exitStatus: 'Submitted', usage: usage(1200, 0.012) }),
      },
      {
        task_id: 'sample:2',
        model: 'openai/gpt-4.1',
        metrics: withSolverExit(scoreSubmission(null, TRUTH), { exitStatus: 'ModelError', reason: 'the model failed (401)', usage: usage(800, 0.01) }),
      },
      { task_id: 'sample:3', metrics: failedTask('the image could not be pulled') },
    ],
    1,
  );
  const lines = formatResultsTable(result).split('\n');

  it("shows a task's status with the solver's own exit status when it did not submit, and the means below", () => {
    expect(lines[0]).toMatch(/^task\s+status\s+file\s+func rec/);
    expect(lines.slice(2, 5).map((line) => cells(line).slice(0, 2))).toEqual([
      ['sample:1', 'no_submission'],
      ['sample:2', 'no_submission (ModelError)'],
      ['sample:3', 'failed'],
    ]);
    expect(lines[6]).toMatch(/^mean \(3\)\s+0 scored\s+0\.00/);
  });

  it("shows each mean's 95% interval under it, in the same columns, and says how they were drawn at the end", () => {
    expect(cells(lines[7])).toEqual(['95% interval', ...Array(9).fill('0.00–0.00')]);
    expect(lines.at(-1)).toBe('Intervals: percentile bootstrap over the tasks (failed ones as zeros), 2,000 resamples, seed 2026 (mulberry32).');
  });

  it("shows each task's solver usage, a dash where it reported none, and the model's means per task over the tasks that reported usage on the last line", () => {
    expect(lines[0]).toMatch(/tok in\s+tok cached\s+tok out\s+USD\s+calls$/);
    expect(cells(lines[2]).slice(-5)).toEqual(['1200', '100', '50', '0.0120', '3']);
    expect(cells(lines[4]).slice(-5)).toEqual(['-', '-', '-', '-', '-']);
    expect(lines[8]).toMatch(/^per task \(2\)\s+openai\/gpt-4\.1\s+1000\s+100\s+50\s+0\.0110\s+3$/);
  });

  it('shows an unknown cost as a dash, in the task and in the means', () => {
    const unpriced = aggregateResults(
      [
        {
          task_id: 'sample:1',
          model: 'openai/local',
          metrics: withSolverExit(scoreSubmission(null, TRUTH), { exitStatus: 'Submitted', usage: usage(1200, null) }),
        },
      ],
      1,
    );
    const table = formatResultsTable(unpriced).split('\n');

    expect(cells(table[2]).slice(-5)).toEqual(['1200', '100', '50', '-', '3']);
    expect(table[6]).toMatch(/^per task \(1\)\s+openai\/local\s+1200\s+100\s+50\s+-\s+3$/);
  });
});

describe('the root-cause block of the results table', () => {
  const span = (file: string, fn: string) => ({
    file,
    function: fn,
    vulSpan: { start: 64, end: 70 },
    fixSpan: { start: 64, end: 71 },
    change: 'modified' as const,
  });
  // The fix changes index_span and a test of it; the root cause is index_span alone.
  const withTest: GroundTruth = {
    ...TRUTH,
    spans: [span('src/index.c', 'index_span'), span('tests/test_index.c', 'test_span')],
    rootCause: [span('src/index.c', 'index_span')],
  };
  const onlyTests: GroundTruth = { ...withTest, rootCause: [] };
  const fixedFunction = '[{"file": "src/index.c", "function": "index_span", "line_start": 64, "line_end": 70}]';
  const result = aggregateResults(
    [
      { task_id: 'sample:1', metrics: scoreSubmission(fixedFunction, withTest) },
      { task_id: 'sample:2', metrics: scoreSubmission(fixedFunction, onlyTests) },
      { task_id: 'sample:3', metrics: failedTask('the image could not be pulled') },
    ],
    1,
  );
  const lines = formatResultsTable(result).split('\n');
  const block = lines.slice(lines.indexOf('') + 1);

  it('follows the usage means after a blank line, in the same metric columns, under its own heading', () => {
    expect(lines[8]).toMatch(/^per task \(0\)\s+-/);
    expect(lines[9]).toBe('');
    expect(cells(block[0])).toEqual(['root cause', 'spans', ...cells(lines[0]).slice(2, 11)]);
    expect(block[0].indexOf('line@3')).toBe(lines[0].indexOf('line@3'));
  });

  it("shows each task's root-cause spans out of all of them and its rc_* scores, dashes where it has none", () => {
    expect(cells(lines[2]).slice(0, 4)).toEqual(['sample:1', 'scored', '0.50', '0.50']);
    expect(block.slice(2, 5).map((line) => cells(line).slice(0, 4))).toEqual([
      ['sample:1', '1 of 2', '1.00', '1.00'],
      ['sample:2', '0 of 2', '-', '-'],
      ['sample:3', 'failed', '0.00', '0.00'],
    ]);
  });

  it('ends with the rc_* means over the tasks that have root-cause spans, and their intervals', () => {
    const rcMean = block.findIndex((line) => line.startsWith('rc mean'));
    expect(block[rcMean]).toMatch(/^rc mean \(2\)\s+0\.50\s+0\.50/);
    expect(lines[6]).toMatch(/^mean \(3\)\s+2 scored\s+0\.33/);
    // Two tasks, one found and one failed: a resample holds both, or either one twice.
    expect(cells(block[rcMean + 1]).slice(0, 3)).toEqual(['95% interval', '0.00–1.00', '0.00–1.00']);
    // Against all spans, a test hunk too, no task's file accuracy passes 0.50, and neither can its mean.
    expect(cells(lines[7]).slice(0, 2)).toEqual(['95% interval', '0.00–0.50']);
  });
});
