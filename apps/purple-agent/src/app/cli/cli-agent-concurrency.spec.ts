import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { environValue, liveInGroup, processesNaming, waitUntil } from '@arvo-rca/common/testing';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { AgentTemplates } from '../agent/agent-templates';
import type { AgentResult } from '../agent/agent-types';
import { LocalWorkspaceEnvironment } from '../agent/local-workspace-environment.testing';
import { DEFAULT_PRICES } from '../models/model-prices';
import { CliAgent } from './cli-agent';
import { agentCliCache, installedCli } from './cli-install';
import { CLAUDE_CODE } from './claude-code';

// Four tasks at once, each run by CliAgent with the real Claude Code against one scripted stand-in of
// Anthropic's API (a script per task, chosen by the task's marker in its prompt), each in a local workspace
// laid out as the green agent's. Every task's first command waits at a gate the test opens, so all four
// are mid-run together when one is canceled.
const ANSWER = JSON.stringify({
  reasoning: 'scripted',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});
const WRITE = `cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF`;
const TASKS = 4;
const CANCELED = 2;

describe('four CLI agents at once (the real Claude Code), one canceled mid-run', () => {
  let root: string;
  let llm: FakeLlmServer;
  const workspaces: LocalWorkspaceEnvironment[] = [];
  const cancels = Array.from({ length: TASKS }, () => new AbortController());
  const runs: Promise<AgentResult>[] = [];
  const markers = Array.from({ length: TASKS }, (_, k) => `[four-at-once task ${k} of ${process.pid}]`);
  let gate: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cli-agent-concurrency-'));
    gate = join(root, 'gate');
    llm = await FakeLlmServer.start();
    const packageDir = await installedCli(CLAUDE_CODE, agentCliCache());
    const templates = await AgentTemplates.load();
    const wait = `until [ -e ${gate} ]; do sleep 0.1; done; echo through the gate`;
    for (const [k, marker] of markers.entries()) {
      if (k === CANCELED) llm.scriptFor(marker, toolCall('mcp__task__shell', { command: wait }), reply('never reached'));
      else
        llm.scriptFor(
          marker,
          toolCall('mcp__task__shell', { command: wait }),
          toolCall('mcp__task__shell', { command: WRITE }),
          toolCall('mcp__task__submit', {}),
          reply('Done.'),
        );
      const workspace = await LocalWorkspaceEnvironment.forSample('1', { commandTimeoutMs: 280_000 });
      workspaces.push(workspace);
      const env = { PATH: process.env['PATH'], ANTHROPIC_API_KEY: 'sk-test', ANTHROPIC_BASE_URL: llm.anthropicBaseUrl };
      const agent = new CliAgent(workspace, { cli: CLAUDE_CODE, packageDir, env, prices: DEFAULT_PRICES, templates });
      const task = { taskId: 'sample:1', contextId: `ctx-four-${k}`, description: `Find the root cause of the crash in /workspace. ${marker}` };
      runs.push(agent.run(task, cancels[k].signal));
    }
  }, 600_000);

  afterAll(async () => {
    writeFileSync(gate, '');
    for (const cancel of cancels) cancel.abort();
    await Promise.allSettled(runs);
    for (const workspace of workspaces) await workspace.dispose();
    await llm?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs each in its own CLI process group, HOME and MCP endpoint; a cancel ends its group at once; the other three submit', async () => {
    await waitUntil('all four tasks in their first command', () => workspaces.every((workspace) => workspace.commands.length === 1) || undefined, 240_000, 100);

    // Each task's CLI, found by its marker in its argv (the prompt): one process group each, a HOME each, and in
    // it an MCP config naming an endpoint and a token of its own.
    const groups = markers.map((marker) => [...new Set(processesNaming(marker).map((info) => info.pgid))]);
    expect(groups.map((found) => found.length)).toEqual([1, 1, 1, 1]);
    const pgids = groups.map(([pgid]) => pgid);
    const homes = pgids.map((pgid) => environValue(pgid, 'HOME') ?? '');
    const servers = homes.map(
      (home) =>
        (JSON.parse(readFileSync(join(home, '.claude', 'task-mcp.json'), 'utf8')) as { mcpServers: Record<string, { url: string; headers: object }> })
          .mcpServers['task'],
    );
    const distinct: unknown[][] = [pgids, homes, servers.map((server) => server.url), servers.map((server) => JSON.stringify(server.headers))];
    expect(distinct.map((values) => new Set(values).size)).toEqual([TASKS, TASKS, TASKS, TASKS]);

    cancels[CANCELED].abort();
    const canceled = await runs[CANCELED];

    expect(canceled).toMatchObject({ exitStatus: 'EnvironmentError', message: 'the task was canceled' });
    expect(liveInGroup(pgids[CANCELED])).toEqual([]);
    expect(existsSync(homes[CANCELED])).toBe(false);
    // The others went on: their CLIs are alive, still in their first command.
    for (const [k, pgid] of pgids.entries()) if (k !== CANCELED) expect(liveInGroup(pgid)).toContain(pgid);

    writeFileSync(gate, '');
    const results = await Promise.all(runs);

    for (const [k, result] of results.entries()) {
      if (k === CANCELED) continue;
      expect(result).toMatchObject({ exitStatus: 'Submitted', submission: `${ANSWER}\n` });
      expect(workspaces[k].finishCalls).toBe(1);
      expect(llm.pendingFor(markers[k])).toBe(0);
      expect(liveInGroup(pgids[k])).toEqual([]);
      expect(existsSync(homes[k])).toBe(false);
    }
    expect(workspaces[CANCELED].finishCalls).toBe(0);
  }, 600_000);
});
