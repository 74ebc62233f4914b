import { existsSync, rmSync } from 'node:fs';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { environValue, liveInGroup, processes, waitUntil, workingFolder } from '@arvo-rca/common/testing';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { CliAgentStack } from './support/processes/cli-agent-stack';
import { TaskContainers } from './support/engines/task-containers';

describeWithDocker('a purple agent running Claude Code, killed with SIGKILL mid-command', () => {
  let stack: CliAgentStack<FakeLlmServer>;
  let assessment: Promise<unknown>;
  let pgid: number | undefined;
  let home: string | undefined;
  let workdir: string | undefined;

  beforeAll(async () => {
    stack = await CliAgentStack.start('claude-code', await FakeLlmServer.start());
  }, 300_000);

  afterAll(async () => {
    await stack?.stop('SIGKILL');
    // Should the watcher have failed, the CLI goes here.
    if (pgid !== undefined && liveInGroup(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
    for (const folder of [home, workdir]) if (folder) rmSync(folder, { recursive: true, force: true });
    await assessment?.catch(() => undefined);
  }, 120_000);

  it('leaves no CLI process and no CLI folder behind: its watcher ends them', async () => {
    // Its next model call never ends: nothing but the watcher ends the CLI once the purple agent is gone.
    const { llm, green, purple } = stack;
    llm.script(toolCall('mcp__task__shell', { command: 'sleep 600' }), reply('never reached', { delayMs: 600_000 }));
    assessment = stack.assess(['sample:1']);
    // Mid-command: the task's container runs the command the model asked for.
    const containers = new TaskContainers();
    const [container] = await waitUntil('the task container', async () => {
      const found = await containers.ofProcess(green.child.pid as number);
      return found.length > 0 ? found : undefined;
    });
    await containers.waitForProcess(container.Id, /sleep 600/, 120_000);
    // The CLI: the processes with this test's stand-in as their endpoint but the purple agent's own group (it
    // has the endpoint too), all in one group of their own.
    const all = processes();
    const purpleGroup = all.find((proc) => proc.pid === purple.child.pid)?.pgid;
    const cli = all.filter((proc) => proc.pgid !== purpleGroup && environValue(proc.pid, 'ANTHROPIC_BASE_URL') === llm.anthropicBaseUrl);
    const groups = [...new Set(cli.map((proc) => proc.pgid))];
    expect(groups).toHaveLength(1);
    [pgid] = groups;
    home = environValue(pgid, 'HOME');
    workdir = workingFolder(pgid);
    expect([home, workdir].every((folder) => folder && existsSync(folder))).toBe(true);

    await purple.stop('SIGKILL');

    await waitUntil('the CLI’s group to end', () => (liveInGroup(pgid as number).length > 0 ? undefined : true), 30_000);
    await waitUntil(
      'the CLI’s HOME and working folder to be removed',
      () => ([home, workdir].some((folder) => existsSync(folder as string)) ? undefined : true),
      30_000,
    );
  }, 600_000);
});
