import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import type { AssessmentFile } from '@arvo-rca/run-record';
import { Scratch } from './support/processes/agent-processes';
import { AssessRunner } from './support/processes/assess-runner';

// The draws an implementation of the documented algorithm in another language (Python integers) gives:
// three of the bundled samples, and twenty of the original's 181 clean tasks, each with seed 7.
const SAMPLES_SEED_7 = ['sample:3', 'sample:4', 'sample:5'];
const CLEAN_SEED_7 = '17715 34096 5496 25530 55886 18798 44610 11504 5494 42736 34013 31250 18152 4440 25885 55820 54949 49455 42479 44887'.split(' ');

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/**
 * `npm run assess` on a task list with a seed, the runner and both agents as real processes, the baseline
 * solver on the bundled samples: every run draws the same tasks, and its record on disk says which and how.
 */
describeWithDocker('the runner on a task list drawn with a seed', () => {
  const scratch = new Scratch();

  const env = (runDir: string): NodeJS.ProcessEnv => ({
    ...scratch.env(),
    LOG_RUN_DIR: join(scratch.logs, runDir),
    SANDBOX: 'docker',
    MODEL: '',
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
  });

  afterAll(() => {
    scratch.remove();
  });

  it('draws the same tasks of @samples for --seed 7 on every run, and each record shows the seed and the drawn tasks', async () => {
    const args = ['--tasks', '@samples', '--num-tasks', '3', '--seed', '7', '--concurrency', '2'];

    const runs = [await AssessRunner.run(args, env('log_first')), await AssessRunner.run(args, env('log_second'))];

    for (const run of runs) {
      if (run.code !== 0) throw new Error(`the run failed:\n${run.output}`);
      expect(run.capture(/^tasks: +(.*)$/)).toBe(`3 drawn from samples (5 tasks) with seed 7: ${SAMPLES_SEED_7.join(', ')}`);
      const recordDir = run.capture(/^record: {2}(\S+)/);
      const draw = { list: 'samples', list_size: 5, seed: 7, task_ids: SAMPLES_SEED_7 };
      expect(readJson<AssessmentFile>(join(recordDir, 'assessment.json'))).toMatchObject({ tasks: SAMPLES_SEED_7, draw });
      const result = readJson<AssessmentResult>(join(recordDir, 'result.json'));
      expect(result).toMatchObject({ task_ids: SAMPLES_SEED_7, draw, n_tasks: 3 });
      expect(Object.keys(result.task_metrics)).toEqual(SAMPLES_SEED_7);
    }
  }, 600_000);

  it('prints the same 20 tasks of rcabench-clean-181 for --seed 7 on every dry run, and starts nothing', async () => {
    const args = ['--tasks', '@rcabench-clean-181', '--num-tasks', '20', '--seed', '7', '--dry-run'];

    const runs = [await AssessRunner.run(args, env('log_dry')), await AssessRunner.run(args, env('log_dry'))];

    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.lines).toEqual([
        `tasks:   20 drawn from rcabench-clean-181 (181 tasks) with seed 7: ${CLEAN_SEED_7.join(', ')}`,
        'would assess 20 task(s) (--dry-run: nothing was run):',
        ...CLEAN_SEED_7,
      ]);
    }
  }, 120_000);
});
