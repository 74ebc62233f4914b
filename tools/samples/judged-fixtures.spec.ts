// The judge's records that the viewer's specs show (the viewer does not run the judge): made here by the
// judge from the truth and answers in the same file. `UPDATE_JUDGED_FIXTURES=1 npx nx test tools
// --testFile=judged-fixtures` writes them again after a change to the judge.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failedTask, scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import type { TaskMetrics } from '@arvo-rca/results';

const VIEWER_FIXTURE = join(__dirname, '../../apps/viewer/src/app/judged-tasks.json');

interface JudgedTasks {
  truth: GroundTruth;
  answers: { good: string; wrong: string };
  /** The failed task's reason and its error's code. */
  failure: { reason: string; code: string };
  metrics: { good: TaskMetrics; wrong: TaskMetrics; failed: TaskMetrics };
}

describe("the viewer's judged tasks", () => {
  it("are the judge's records of its answers today", () => {
    const fixture = JSON.parse(readFileSync(VIEWER_FIXTURE, 'utf8')) as JudgedTasks;
    const { truth, answers, failure } = fixture;
    const metrics = {
      good: scoreSubmission(answers.good, truth),
      wrong: scoreSubmission(answers.wrong, truth),
      failed: failedTask(failure.reason, truth, { error_code: failure.code }),
    };
    if (process.env['UPDATE_JUDGED_FIXTURES'] === '1') writeFileSync(VIEWER_FIXTURE, `${JSON.stringify({ ...fixture, metrics }, null, 2)}\n`);

    expect(JSON.parse(readFileSync(VIEWER_FIXTURE, 'utf8')).metrics).toEqual(metrics);
  });
});
