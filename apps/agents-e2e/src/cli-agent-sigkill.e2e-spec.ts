import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { TaskContainers } from './support/engines/task-containers';

interface Proc {
  pid: number;
  pgid: number;
  state: string;
}

/** Every process /proc shows (no procps needed), with its group and its state (`Z`: dead, not yet reaped). */
function processes(): Proc[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)?.split(' ') ?? [];
        return [{ pid: Number(pid), state: fields[0], pgid: Number(fields[2]) }];
      } catch {
        return [];
      }
    });
}

function environ(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

async function until<T>(what: string, found: () => T | undefined | Promise<T | undefined>, limitMs = 120_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await found();
    if (value !== undefined) return value;
    if (Date.now() - started > limitMs) throw new Error(`still waiting for ${what} after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describeWithDocker('a purple agent running Claude Code, killed with SIGKILL mid-command', () => {
  const scratch = new Scratch();
  let llm: FakeLlmServer;
  let green: AgentProcess;
  let purple: AgentProcess;
  let assessment: Promise<unknown>;
  let pgid: number | undefined;
  let home: string | undefined;
  let workdir: string | undefined;

  beforeAll(async () => {
    llm = await FakeLlmServer.start();
    const [greenPort, purplePort] = [await freePort(), await freePort()];
    const env = { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
    const cli = { AGENT_CLI: 'claude-code', ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-test' };
    [green, purple] = await Promise.all([startAgent('green-agent', env, greenPort), startAgent('purple-agent', { ...env, ...cli }, purplePort)]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([purple?.stop('SIGKILL'), green?.stop()]);
    // Should the watcher have failed, the CLI goes here.
    if (pgid !== undefined && processes().some((proc) => proc.pgid === pgid && proc.state !== 'Z')) process.kill(-pgid, 'SIGKILL');
    for (const folder of [home, workdir]) if (folder) rmSync(folder, { recursive: true, force: true });
    await assessment?.catch(() => undefined);
    await llm?.close();
    scratch.remove();
  }, 120_000);

  it('leaves no CLI process and no CLI folder behind: its watcher ends them', async () => {
    // Its next model call never ends: nothing but the watcher ends the CLI once the purple agent is gone.
    llm.script(toolCall('mcp__task__shell', { command: 'sleep 600' }), reply('never reached', { delayMs: 600_000 }));
    const request = { participants: { purple_agent: purple.url }, config: { task_ids: ['sample:1'] } };
    const stream = new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 600_000 });
    assessment = (async () => {
      for await (const event of stream) void event;
    })();
    // Mid-command: the task's container runs the command the model asked for.
    const containers = new TaskContainers();
    const [container] = await until('the task container', async () => {
      const found = await containers.ofProcess(green.child.pid as number);
      return found.length > 0 ? found : undefined;
    });
    await containers.waitForProcess(container.Id, /sleep 600/, 120_000);
    // The CLI: the processes with this test's stand-in as their endpoint but the purple agent's own group (it
    // has the endpoint too), all in one group of their own.
    const all = processes();
    const purpleGroup = all.find((proc) => proc.pid === purple.child.pid)?.pgid;
    const cli = all.filter((proc) => proc.pgid !== purpleGroup && environ(proc.pid).includes(`ANTHROPIC_BASE_URL=${llm.anthropicBaseUrl}`));
    const groups = [...new Set(cli.map((proc) => proc.pgid))];
    expect(groups).toHaveLength(1);
    [pgid] = groups;
    home = environ(pgid)
      .find((entry) => entry.startsWith('HOME='))
      ?.slice('HOME='.length);
    workdir = readlinkSync(`/proc/${pgid}/cwd`);
    expect([home, workdir].every((folder) => folder && existsSync(folder))).toBe(true);

    await purple.stop('SIGKILL');

    await until('the CLI’s group to end', () => (processes().some((proc) => proc.pgid === pgid && proc.state !== 'Z') ? undefined : true), 30_000);
    await until(
      'the CLI’s HOME and working folder to be removed',
      () => ([home, workdir].some((folder) => existsSync(folder as string)) ? undefined : true),
      30_000,
    );
  }, 600_000);
});
