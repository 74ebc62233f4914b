import { aggregateResults, failedTask, scoreSubmission, withSolverExit, type GroundTruth } from '@arvo-rca/rca-eval';
import { formatResultsTable } from './results-table';

const TRUTH: GroundTruth = {
  spans: [{ file: 'src/index.c', function: 'index_span', vulSpan: { start: 64, end: 70 }, fixSpan: { start: 64, end: 71 }, change: 'modified' }],
  project: 'tlvkit',
  notes: [],
};

describe('the results table', () => {
  it("shows a task's status with the solver's own exit status when it did not submit, and the means below", () => {
    const submitted = withSolverExit(scoreSubmission(null, TRUTH), { exitStatus: 'Submitted' });
    const modelError = withSolverExit(scoreSubmission(null, TRUTH), { exitStatus: 'ModelError', reason: 'the model failed (401)' });
    const result = aggregateResults(
      [
        { taskId: 'sample:1', metrics: submitted },
        { taskId: 'sample:2', metrics: modelError },
        { taskId: 'sample:3', metrics: failedTask('the image could not be pulled') },
      ],
      1,
    );

    const lines = formatResultsTable(result).split('\n');

    expect(lines[0]).toMatch(/^task\s+status\s+file\s+func rec/);
    expect(lines.slice(2, 5).map((line) => line.split(/\s{2,}/).slice(0, 2))).toEqual([
      ['sample:1', 'no_submission'],
      ['sample:2', 'no_submission (ModelError)'],
      ['sample:3', 'failed'],
    ]);
    expect(lines[6]).toMatch(/^mean \(3\)\s+0 scored\s+0\.00/);
  });
});
