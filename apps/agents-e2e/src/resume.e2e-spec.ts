import { existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { createDockerClient } from '@arvo-rca/arvo-docker';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { RecordLayout, type RecordScan, scanRecord } from '@arvo-rca/run-record';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { AssessRunner } from './support/processes/assess-runner';
import { comparableResult, comparableTask, readResult, resultFiles, samplesWithoutImage, type SamplesWithoutImage } from './support/records/run-records';
import { TaskContainers } from './support/engines/task-containers';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
const TASK_ATTEMPTS = 2;
// The runner's lines (it prints plain lines when its output is no terminal).
const RECORD_LINE = /^record: {2}(\S+)/;
const STARTED_LINE = /^started {3}(\S+)$/;
const FINISHED_LINE = /^finished {2}sample:/;

/**
 * A run killed and resumed, with the runner (`npm run assess`) and both agents as real processes, the
 * baseline solver on the bundled samples, one task at a time: the record keeps what finished, a resume
 * runs the rest, and the Result is the one the same run left alone gives, but for times and costs.
 */
describeWithDocker('an assessment killed mid-run and resumed from its run record', () => {
  const scratch = new Scratch();
  const agents: AgentProcess[] = [];
  let reference: AssessmentResult;

  /** Every agent and runner here: one LOG_DIR with a run directory per run, the baseline solver, two attempts per task. */
  const env = (runDir: string): NodeJS.ProcessEnv => ({
    ...scratch.env(),
    LOG_RUN_DIR: join(scratch.logs, runDir),
    SANDBOX: 'docker',
    TASK_ATTEMPTS: String(TASK_ATTEMPTS),
    MODEL: '',
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
  });

  /** A green and a purple agent started here (not by the runner), so that the test can kill them. */
  async function startPair(runDir: string, purpleEnv: NodeJS.ProcessEnv = {}): Promise<{ green: AgentProcess; purple: AgentProcess }> {
    const purple = await startAgent('purple-agent', { ...env(runDir), ...purpleEnv }, await freePort());
    const green = await startAgent('green-agent', { ...env(runDir), PURPLE_AGENT_URL: purple.url });
    agents.push(green, purple);
    return { green, purple };
  }

  beforeAll(async () => {
    const run = await AssessRunner.run(['--tasks', SAMPLES.join(','), '--concurrency', '1'], env('log_reference'));
    if (run.code !== 0) throw new Error(`the uninterrupted run failed:\n${run.output}`);
    reference = readResult(run.capture(/^results: (\S+)$/));
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await new TaskContainers().removeOfProcesses(agents.map((agent) => agent.child.pid ?? 0));
    scratch.remove();
  });

  describe('killed once two tasks have finished', () => {
    let killed: { runner: AssessRunner; green: AgentProcess; folder: string; scan: RecordScan; files: Map<string, string> };

    beforeAll(async () => {
      const { green, purple } = await startPair('log_interrupted');
      const runner = AssessRunner.start(
        ['--tasks', SAMPLES.join(','), '--concurrency', '1', '--green', green.url, '--purple', purple.url],
        env('log_interrupted'),
      );
      // Each task's record (task.json) is written before its `finished` line goes out: by now two are in the record.
      await runner.linesMatching(FINISHED_LINE, 2);
      await green.stop('SIGKILL');
      await runner.exited();
      await purple.stop();
      const folder = runner.capture(RECORD_LINE);
      const scan = await scanRecord(folder);
      killed = { runner, green, folder, scan, files: resultFiles(scan) };
    });

    it('keeps in the record exactly the two tasks that finished, and the others as missing', () => {
      expect([...killed.scan.done.keys()]).toEqual(['sample:1', 'sample:2']);
      expect(killed.scan.missing).toEqual(['sample:3', 'sample:4', 'sample:5']);
      expect(killed.scan.damaged).toEqual([]);
      expect(killed.scan.assessment.sessions).toEqual([expect.objectContaining({ tasks: 5, ended_at: null })]);
    });

    it('printed the record folder at the start, and once the green agent died, how to resume it, exiting non-zero', () => {
      const { lines, code } = killed.runner;
      expect(lines.findIndex((line) => RECORD_LINE.test(line))).toBeLessThan(lines.findIndex((line) => STARTED_LINE.test(line)));
      expect(killed.runner.output).toContain(`assess: the green agent at ${killed.green.url} stopped answering mid-run`);
      expect(lines.at(-1)).toBe(`resume with: npm run assess -- --resume ${killed.folder} --green ${killed.green.url}`);
      expect(code).toBe(1);
    });

    it('refuses a resume with a solver of another model, naming the difference, and writes nothing', async () => {
      // Another run directory of the same LOG_DIR: a restarted green agent finds the record beside its own.
      const { green, purple } = await startPair('log_refused', {
        MODEL: 'openai/gpt-4.1',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      });

      const runner = await AssessRunner.run(['--resume', killed.folder, '--green', green.url, '--purple', purple.url], env('log_refused'));

      expect(runner.output).toMatch(
        new RegExp(`assess: the green agent at ${green.url} refused: Resume refused.*the solver's model: "baseline" recorded, "openai/gpt-4\\.1" now`),
      );
      expect(runner.output).not.toContain('resume with:');
      expect(runner.code).toBe(1);
      const scan = await scanRecord(killed.folder);
      expect(scan.assessment.sessions).toHaveLength(1);
      expect(resultFiles(scan)).toEqual(killed.files);
      await Promise.all([green.stop(), purple.stop()]);
    });

    describe('then resumed by the runner, which starts the agents again in the run directory of the record', () => {
      let resumed: AssessRunner;

      beforeAll(async () => {
        // LOG_RUN_DIR names another folder: the record's run directory wins.
        resumed = await AssessRunner.run(['--resume', killed.folder], env('log_not_used'));
      });

      it('says what the record holds, and runs only the three tasks it lacks', () => {
        expect(resumed.lines).toEqual(expect.arrayContaining(['done:    2 of 5 (sample:1, sample:2)', 'to run:  3 (sample:3, sample:4, sample:5)']));
        expect(resumed.captures(STARTED_LINE)).toEqual(['sample:3', 'sample:4', 'sample:5']);
        expect(resumed.lines).toContain(`results: ${join(killed.folder, 'result.json')}`);
        expect(resumed.code).toBe(0);
      });

      it('gives the Result of the uninterrupted run, but for times and costs', () => {
        expect(comparableResult(readResult(join(killed.folder, 'result.json')))).toEqual(comparableResult(reference));
      });

      it('scores no task twice: the tasks of the first session keep their result, the resume wrote the others', async () => {
        const scan = await scanRecord(killed.folder);
        const sessions = Object.fromEntries([...scan.done].map(([task, file]) => [task, file.session]));

        expect(sessions).toEqual({ 'sample:1': 0, 'sample:2': 0, 'sample:3': 1, 'sample:4': 1, 'sample:5': 1 });
        expect(new Map([...resultFiles(scan)].filter(([task]) => killed.files.has(task)))).toEqual(killed.files);
        expect(new Set([...scan.done.values()].map((file) => file.context_id)).size).toBe(5);
        expect(scan.assessment.sessions.map((session) => session.tasks)).toEqual([5, 3]);
      });

      it("keeps every task's log and trajectory in the run directory of the record", async () => {
        const scan = await scanRecord(killed.folder);

        for (const file of scan.done.values()) {
          expect(file.files.trajectory).toMatch(/^assessments\/[^/]+\/tasks\/[^/]+\/trajectory\.json$/);
          expect(existsSync(join(scan.runDir, file.files.trajectory ?? ''))).toBe(true);
          expect(existsSync(join(scan.runDir, file.files.log ?? ''))).toBe(true);
        }
        expect(existsSync(join(scratch.logs, 'log_not_used'))).toBe(false);
      });

      it('reports a damaged task result, and runs that task again and no other', async () => {
        const before = resultFiles(await scanRecord(killed.folder));
        truncateSync(new RecordLayout(killed.folder).taskFile('sample:4'), 40);

        const again = await AssessRunner.run(['--resume', killed.folder], env('log_not_used'));

        expect(again.lines).toEqual(
          expect.arrayContaining([expect.stringMatching(/^damaged: sample:4: task\.json is not whole JSON .*; it runs again$/), 'to run:  1 (sample:4)']),
        );
        expect(again.captures(STARTED_LINE)).toEqual(['sample:4']);
        const scan = await scanRecord(killed.folder);
        expect(scan.done.get('sample:4')?.session).toBe(2);
        before.delete('sample:4');
        expect(new Map([...resultFiles(scan)].filter(([task]) => task !== 'sample:4'))).toEqual(before);
        expect(comparableResult(readResult(join(killed.folder, 'result.json')))).toEqual(comparableResult(reference));
      });
    });
  });

  describe('with a task whose image cannot be pulled', () => {
    let samples: SamplesWithoutImage;
    let folder: string;
    let first: AssessRunner;
    const retryEnv = (): NodeJS.ProcessEnv => ({ ...env('log_retry'), SAMPLES_DIR: samples.dir });

    beforeAll(async () => {
      samples = samplesWithoutImage(scratch.dir);
      // Agents the runner did not start: it makes the images only for a green agent of its own, which would build this one.
      const purple = await startAgent('purple-agent', retryEnv(), await freePort());
      const green = await startAgent('green-agent', { ...retryEnv(), PURPLE_AGENT_URL: purple.url });
      agents.push(green, purple);
      first = await AssessRunner.run(['--tasks', `sample:1,${samples.task},sample:2`, '--green', green.url, '--purple', purple.url], retryEnv());
      await Promise.all([green.stop(), purple.stop()]);
      folder = first.capture(RECORD_LINE);
    });

    afterAll(async () => {
      // Only the tag this suite gave: the sample's own image stays.
      await createDockerClient()
        .getImage(samples.image)
        .remove()
        .catch(() => undefined);
    });

    it(`fails that task after ${TASK_ATTEMPTS} attempts, both counted, scores the others, and exits 1 naming the image`, async () => {
      const result = readResult(join(folder, 'result.json'));

      expect(result.task_metrics[samples.task]).toMatchObject({ status: 'failed', n_attempts: TASK_ATTEMPTS });
      expect(result.task_metrics[samples.task].detail).toContain(samples.image);
      expect((await scanRecord(folder)).done.get(samples.task)?.run.attempts).toBe(TASK_ATTEMPTS);
      for (const task of ['sample:1', 'sample:2']) expect(result.task_metrics[task]).toMatchObject({ status: 'scored', n_attempts: 1 });
      expect(first.code).toBe(1);
      expect(first.lines.at(-1)).toMatch(
        new RegExp(
          `^assess: 1 of 3 tasks failed: image ${samples.image} could not be had on the engine of the green agent at .*--retry-failed\` runs them again$`,
        ),
      );
    });

    it('keeps the failed task on a resume without --retry-failed, and says that flag runs it again', async () => {
      const resume = await AssessRunner.run(['--resume', folder], retryEnv());

      expect(resume.lines).toEqual(
        expect.arrayContaining([expect.stringMatching(new RegExp(`^kept: {4}${samples.task} failed \\(.*\\); --retry-failed runs it again$`)), 'to run:  0']),
      );
      expect(resume.output).toContain('nothing to run');
      expect(resume.code).toBe(0);
    });

    it('runs only that task again with --retry-failed once its image is there, and scores it as the sample it copies', async () => {
      const [repo, tag] = samples.image.split(':');
      await createDockerClient().getImage(samples.copyOf.image).tag({ repo, tag });
      const before = resultFiles(await scanRecord(folder));

      const retry = await AssessRunner.run(['--resume', folder, '--retry-failed'], retryEnv());

      expect(retry.lines).toContain(`to run:  1 (${samples.task})`);
      expect(retry.captures(STARTED_LINE)).toEqual([samples.task]);
      const scan = await scanRecord(folder);
      expect(scan.done.get(samples.task)?.session).toBe(1);
      expect(new Map([...resultFiles(scan)].filter(([task]) => task !== samples.task))).toEqual(new Map([...before].filter(([task]) => task !== samples.task)));
      const result = readResult(join(folder, 'result.json'));
      // Scored as the sample it copies; its attempts are those of both sessions.
      const { n_attempts: attempts, ...retried } = comparableTask(result.task_metrics[samples.task]);
      const { n_attempts: _referenceAttempts, ...copied } = comparableTask(reference.task_metrics[samples.copyOf.task]);
      expect(retried).toEqual(copied);
      expect(attempts).toBe(TASK_ATTEMPTS + 1);
      expect(retry.code).toBe(0);
    });
  });
});
