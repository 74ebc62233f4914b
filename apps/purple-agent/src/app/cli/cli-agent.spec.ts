import { existsSync } from 'node:fs';
import { environValue, processesNaming } from '@arvo-rca/common/testing';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import { LocalWorkspaceEnvironment } from '../agent/local-workspace-environment.testing';
import { DEFAULT_PRICES } from '../models/model-prices';
import { CliAgent } from './cli-agent';
import { agentCliCache, installedCli } from './cli-install';
import { CLAUDE_CODE } from './claude-code';

// CliAgent with the real Claude Code at its pinned version, its model a scripted stand-in of Anthropic's
// streaming Messages API, its commands run in a local workspace laid out as the green agent's.
const ANSWER = JSON.stringify({
  reasoning: 'scripted',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});

describe('a CLI agent’s run on a task (the real Claude Code)', () => {
  let packageDir: string;
  let llm: FakeLlmServer;
  let templates: AgentTemplates;
  let workspace: LocalWorkspaceEnvironment;

  beforeAll(async () => {
    packageDir = await installedCli(CLAUDE_CODE, agentCliCache());
    templates = await AgentTemplates.load();
  }, 600_000);

  beforeEach(async () => {
    llm = await FakeLlmServer.start();
    workspace = await LocalWorkspaceEnvironment.forSample('1', { commandTimeoutMs: 15_000 });
  });

  afterEach(async () => {
    await llm.close();
    await workspace.dispose();
  });

  function agent(config: Partial<AgentConfig> = {}): CliAgent {
    const env = { PATH: process.env['PATH'], ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: llm.anthropicBaseUrl };
    return new CliAgent(workspace, { cli: CLAUDE_CODE, packageDir, env, prices: DEFAULT_PRICES, templates, config: { ...DEFAULT_AGENT_CONFIG, ...config } });
  }

  const task = { taskId: 'sample:1', contextId: 'ctx-cli-agent', description: 'Find the root cause of the crash in /workspace.' };

  it('takes loc.json as our own agent does: rejected with the reason, then submitted, and the CLI’s usage counted', async () => {
    llm.script(
      toolCall('mcp__task__submit', {}, { usage: { input: 100, output: 10 } }),
      toolCall('mcp__task__shell', { command: `cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF` }, { usage: { input: 200, output: 50 } }),
      toolCall('mcp__task__submit', {}, { usage: { input: 300, output: 10 } }),
      reply('Done.', { usage: { input: 400, output: 5 } }),
    );
    const run = agent();

    const result = await run.run(task);

    expect(result).toMatchObject({ exitStatus: 'Submitted', submission: `${ANSWER}\n` });
    expect(JSON.stringify(llm.requests[1].body)).toContain('cannot be read');
    expect(result.usage).toMatchObject({ input_tokens: 1000, output_tokens: 75, llm_requests: 4 });
    expect(workspace.finishCalls).toBe(1);
    expect(run.trajectory().info.commands.map((command) => command.by)).toEqual(['agent', 'model', 'agent']);
  }, 180_000);

  it('ends the CLI’s whole process tree at the wall-time limit, mid-command, with TimeExceeded', async () => {
    const marker = `cli-agent-limit-${process.pid}`;
    llm.script(toolCall('mcp__task__shell', { command: `sleep 60 # ${marker}` }), reply('never asked'));
    const started = Date.now();

    const result = await agent({ wallTimeLimitS: 8 }).run(task);

    expect(result.exitStatus).toBe('TimeExceeded');
    expect(result.message).toMatch(/^wall-time limit reached: \d+ s \(limit 8 s\)$/);
    expect(Date.now() - started).toBeLessThan(40_000);
    // The CLI and everything it started are gone; its HOME and working folder were removed.
    expect(processesNaming(CLAUDE_CODE.entry).filter((info) => environValue(info.pid, 'ANTHROPIC_BASE_URL') === llm.anthropicBaseUrl)).toEqual([]);
    expect(llm.pending).toBe(1);
  }, 120_000);

  it('ends at the step limit', async () => {
    llm.script(...Array.from({ length: 6 }, (_, k) => toolCall('mcp__task__shell', { command: `echo step ${k}` })), reply('never reached'));
    const limited = await agent({ stepLimit: 2 }).run(task);
    expect(limited.exitStatus).toBe('LimitsExceeded');
    expect(limited.message).toMatch(/^step limit reached: 2 steps \(limit 2\)$/);
    expect(workspace.commands).toEqual(['echo step 0', 'echo step 1']);
  }, 120_000);

  it('ends the CLI at once when its task is canceled', async () => {
    llm.script(toolCall('mcp__task__shell', { command: 'sleep 60' }), reply('never reached'));
    const cancel = new AbortController();
    const running = agent().run(task, cancel.signal);
    const waitedFrom = Date.now();
    while (workspace.commands.at(-1) !== 'sleep 60' && Date.now() - waitedFrom < 60_000) await new Promise((resolve) => setTimeout(resolve, 100));
    const canceledAt = Date.now();
    cancel.abort();
    const canceled = await running;
    expect(canceled).toMatchObject({ exitStatus: 'EnvironmentError', message: 'the task was canceled' });
    expect(Date.now() - canceledAt).toBeLessThan(5_000);
    expect(existsSync(packageDir)).toBe(true);
  }, 180_000);
});
