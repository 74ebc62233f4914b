import { join } from 'node:path';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { SAMPLES_DIR, Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { AssessRunner } from './support/processes/assess-runner';
import { readResult } from './support/records/run-records';
import { TaskContainers } from './support/engines/task-containers';

// The runner's lines (it prints plain lines when its output is no terminal).
const RECORD_LINE = /^record: {2}(\S+)/;
const RESULTS_LINE = /^results: (\S+)$/;

/**
 * The runner (`npm run assess -- --green ...`) and a green agent it did not start, whose ARVO images come from a
 * mirror of its own (ARVO_IMAGE_TEMPLATE) on a loopback port nobody listens on, its ARVO files from the bundled
 * samples (ARVO_DATA_URL): the task's image cannot be pulled, and the runner, which cannot know that template,
 * learns the image from the green agent's Result.
 */
describeWithDocker("a run whose image the green agent's own mirror could not give", () => {
  const scratch = new Scratch();
  const agents: AgentProcess[] = [];
  const env: NodeJS.ProcessEnv = { ...scratch.env(), SANDBOX: 'docker', MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
  let image: string;
  let green: AgentProcess;
  let runner: AssessRunner;

  beforeAll(async () => {
    // A port nobody listens on: the engine's pull is refused at once.
    const mirror = `127.0.0.1:${await freePort()}`;
    image = `${mirror}/arvo:1-vul`;
    const purple = await startAgent('purple-agent', env, await freePort());
    agents.push(purple);
    green = await startAgent('green-agent', {
      ...env,
      PURPLE_AGENT_URL: purple.url,
      ARVO_DATA_URL: SAMPLES_DIR,
      ARVO_IMAGE_TEMPLATE: `${mirror}/arvo:{id}-vul`,
    });
    agents.push(green);
    runner = await AssessRunner.run(['--tasks', 'arvo:1', '--green', green.url, '--purple', purple.url], {
      ...env,
      LOG_RUN_DIR: join(scratch.logs, 'log_runner'),
    });
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop('SIGKILL')));
    await new TaskContainers().removeOfProcesses(agents.map((agent) => agent.child.pid ?? 0));
    scratch.remove();
  });

  it("fails the task, its entry in the Result naming the image the green agent tried from its mirror's template", () => {
    const result = readResult(runner.capture(RESULTS_LINE));

    expect(result.task_metrics['arvo:1']).toMatchObject({ status: 'failed', error_code: 'IMAGE_PULL_FAILED', image });
    expect(result.task_metrics['arvo:1'].detail).toMatch(new RegExp(`^pulling ${image.replace(/[.:]/g, '\\$&')} failed: `));
  });

  it("exits 1, its last line naming that image to pull by hand on the green agent's engine, not the one the id names by default", () => {
    const folder = runner.capture(RECORD_LINE);

    expect(runner.code).toBe(1);
    expect(runner.lines.at(-1)).toBe(
      `assess: 1 of 1 tasks failed: image ${image} could not be had on the engine of the green agent at ${green.url}; ` +
        `check that the engine reaches the registry (\`docker pull ${image}\`); then \`npm run assess -- --resume ${folder} --green ${green.url} --retry-failed\` runs them again`,
    );
    expect(runner.output).not.toContain('n132/arvo');
  });
});
