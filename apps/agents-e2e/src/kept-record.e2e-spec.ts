import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { RECORDS_FOLDER, scanRecord, type RecordScan } from '@arvo-rca/run-record';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { AssessRunner } from './support/processes/assess-runner';
import { readResult, recordFiles } from './support/records/run-records';
import { TaskContainers } from './support/engines/task-containers';
import { ViewerProcess } from './support/viewer/viewer-process';

// The runner's lines (it prints plain lines when its output is no terminal).
const KEPT_LINE = /^record: {2}(\S+) \(kept here as the green agent at (\S+) writes it in (\S+)\)$/;
const FINISHED_LINE = /^finished {2}sample:/;

/**
 * The runner and a green agent that do not share a run directory, as with a green agent in a container or
 * on another machine: both agents real processes on loopback with a run directory of their own, the
 * runner (`npm run assess -- --green ...`) with its own, the baseline solver on the bundled samples.
 */
describeWithDocker("the runner keeps the green agent's run record in its own run directory", () => {
  const scratch = new Scratch();
  const agentsRun = join(scratch.logs, 'log_agents');
  const runnerLogs = join(scratch.dir, 'runner-logs');
  let green: AgentProcess, purple: AgentProcess;

  const env = (runDir: string): NodeJS.ProcessEnv => ({
    ...scratch.env(),
    LOG_RUN_DIR: runDir,
    SANDBOX: 'docker',
    MODEL: '',
    ANTHROPIC_API_KEY: '',
    OPENAI_API_KEY: '',
  });
  const assess = (tasks: string[]): string[] => ['--tasks', tasks.join(','), '--concurrency', '1', '--green', green.url, '--purple', purple.url];

  /** Polls the green agent's record until its session has ended by itself. */
  async function endedOnGreen(folder: string): Promise<RecordScan> {
    for (;;) {
      const scan = await scanRecord(folder);
      if (scan.assessment.sessions.at(-1)?.ended_at) return scan;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  beforeAll(async () => {
    mkdirSync(agentsRun, { recursive: true });
    purple = await startAgent('purple-agent', env(agentsRun), await freePort());
    green = await startAgent('green-agent', { ...env(agentsRun), PURPLE_AGENT_URL: purple.url });
  });

  afterAll(async () => {
    const agents = [green, purple].filter(Boolean);
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await new TaskContainers().removeOfProcesses(agents.map((agent) => agent.child.pid ?? 0));
    scratch.remove();
  });

  describe('after a whole run', () => {
    const runnerRun = join(runnerLogs, 'log_whole');
    let runner: AssessRunner;
    let kept: { local: string; remote: string };

    beforeAll(async () => {
      runner = await AssessRunner.run(assess(['sample:1', 'sample:2']), env(runnerRun));
      const [, local, , remote] = KEPT_LINE.exec(runner.lines.find((line) => KEPT_LINE.test(line)) ?? '') ?? [];
      kept = { local, remote };
    });

    it('holds the Result and the record under the same id, every file the same as on the green agent, and prints the local paths', async () => {
      expect(runner.code).toBe(0);
      expect(kept.local).toMatch(new RegExp(`^${runnerRun}/${RECORDS_FOLDER}/[0-9_-]+_[0-9a-f]{8}$`));
      expect(kept.remote).toBe(join(agentsRun, RECORDS_FOLDER, kept.local.split('/').at(-1) ?? ''));
      expect(runner.lines).toContain(`results: ${join(kept.local, 'result.json')}`);
      const scan = await scanRecord(kept.local);
      expect([[...scan.done.keys()], scan.missing, scan.damaged]).toEqual([['sample:1', 'sample:2'], [], []]);
      expect(recordFiles(kept.local)).toEqual(recordFiles(kept.remote));
      expect([...recordFiles(kept.local).keys()]).toEqual(
        expect.arrayContaining([
          'assessment.json',
          'result.json',
          ...['crash.txt', 'fix.diff', 'loc.json', 'sources.json', 'trajectory.json', 'task.json'].map((file) => `tasks/sample_1/${file}`),
        ]),
      );
      expect(readResult(join(kept.local, 'result.json'))).toMatchObject({ n_tasks: 2, n_scored: 2 });
    });

    it("shows the run in the viewer over the runner's logs: its tasks, each trajectory, and each task log as left on the green agent's side", async () => {
      const viewer = await ViewerProcess.start([runnerLogs]);
      try {
        const { runs } = (await (await fetch(new URL('api/runs', viewer.url))).json()) as { runs: { id: string; recorded: number; scored: number }[] };
        const id = kept.local.split('/').at(-1);
        expect(runs.find((run) => run.id === id)).toMatchObject({ recorded: 2, scored: 2 });
        const page = (await (await fetch(new URL(`api/runs/${id}/tasks/sample:1`, viewer.url))).json()) as Record<string, unknown>;
        expect(page).toMatchObject({ trajectory: 'present', log: 'missing', crash_report: expect.stringContaining('AddressSanitizer') });
        const trajectory = (await (await fetch(new URL(`api/runs/${id}/tasks/sample:1/trajectory`, viewer.url))).json()) as { steps: unknown[] };
        expect(trajectory.steps.length).toBeGreaterThan(0);
      } finally {
        await viewer.stop();
      }
    });
  });

  describe('when the runner is killed mid-run', () => {
    const runnerRun = join(runnerLogs, 'log_killed');
    const tasks = ['sample:1', 'sample:2', 'sample:3', 'sample:4'];
    let killed: { local: string; remote: string; scan: RecordScan };

    beforeAll(async () => {
      const runner = AssessRunner.start(assess(tasks), env(runnerRun), true);
      // Each task's files are kept before its `finished` line is shown: by now two are here.
      await runner.linesMatching(FINISHED_LINE, 2);
      runner.stopGroup();
      await runner.exited();
      const [, local, , remote] = KEPT_LINE.exec(runner.lines.find((line) => KEPT_LINE.test(line)) ?? '') ?? [];
      killed = { local, remote, scan: await scanRecord(local) };
    });

    it('keeps the tasks it had got, each file the same as on the green agent', () => {
      expect([...killed.scan.done.keys()].slice(0, 2)).toEqual(['sample:1', 'sample:2']);
      // Killed mid-run: one task at a time, the last could not have ended yet.
      expect(killed.scan.missing).toContain('sample:4');
      const green = recordFiles(killed.remote);
      for (const [path, content] of recordFiles(killed.local)) if (path.startsWith('tasks/')) expect([path, green.get(path)]).toEqual([path, content]);
    });

    it('goes on with its copy on a resume: the green agent, which ran on alone, sends the tasks the copy lacks, and the copy is whole', async () => {
      // The green agent ran the rest of its tasks after the runner died.
      await endedOnGreen(killed.remote);

      const resumed = await AssessRunner.run(['--resume', killed.local, '--green', green.url, '--purple', purple.url], env(join(runnerLogs, 'log_unused')));

      expect(resumed.code).toBe(0);
      expect(resumed.lines).toContain(`record:  ${killed.local} (kept here as the green agent at ${green.url} writes it in ${killed.remote})`);
      expect(resumed.lines).toContain(`results: ${join(killed.local, 'result.json')}`);
      const scan = await scanRecord(killed.local);
      expect([[...scan.done.keys()], scan.missing, scan.damaged]).toEqual([tasks, [], []]);
      expect(recordFiles(killed.local)).toEqual(recordFiles(killed.remote));
    });
  });
});
