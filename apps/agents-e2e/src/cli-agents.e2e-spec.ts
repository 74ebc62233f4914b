import { randomUUID } from 'node:crypto';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { FakeLlmServer, reply, toolCall, type RecordedRequest } from '@arvo-rca/fake-llm';
import type { AssessmentResult } from '@arvo-rca/results';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';

// sample:1's root cause (samples/1/patch.diff), as a CLI agent would write it.
const ANSWER = JSON.stringify({
  reasoning: 'the span is read past the buffer',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});
const WRITE = `cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF`;

interface CliCase {
  name: 'claude-code' | 'codex' | 'gemini-cli';
  /** The CLI's key and endpoint variables, at the stand-in. */
  env: (llm: FakeLlmServer) => Record<string, string>;
  /** The task's tools as the CLI names them to its model. */
  shell: string;
  submit: string;
  /** Tool names a turn's request offers the model. */
  offered: (request: RecordedRequest) => string[] | undefined;
  /** What the CLI adds beside the task's tools, each of which reaches only MCP servers, and only the task's is configured. */
  alsoOffered: string[];
}

type Body = {
  tools?: { name?: string; type?: string; tools?: { name: string }[]; functionDeclarations?: { name: string }[] }[];
};
const toolsOf = (request: RecordedRequest): Body['tools'] => (request.body as Body).tools;

const CASES: CliCase[] = [
  {
    name: 'claude-code',
    env: (llm) => ({ ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, ANTHROPIC_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'claude-sonnet-4-5' }),
    shell: 'mcp__task__shell',
    submit: 'mcp__task__submit',
    offered: (request) => toolsOf(request)?.map((tool) => tool.name ?? ''),
    alsoOffered: [],
  },
  {
    name: 'codex',
    env: (llm) => ({ OPENAI_BASE_URL: llm.openAiBaseUrl, OPENAI_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'gpt-5.5' }),
    shell: 'mcp__task__shell',
    submit: 'mcp__task__submit',
    // Codex offers MCP tools in a namespace; its three MCP-resource tools cannot be switched off (docs/cli-agents.md).
    offered: (request) =>
      toolsOf(request)?.flatMap((tool) =>
        tool.type === 'namespace' ? (tool.tools ?? []).map((fn) => `${tool.name}__${fn.name}`) : [tool.name ?? tool.type ?? ''],
      ),
    alsoOffered: ['list_mcp_resource_templates', 'list_mcp_resources', 'read_mcp_resource'],
  },
  {
    name: 'gemini-cli',
    env: (llm) => ({ GOOGLE_GEMINI_BASE_URL: llm.geminiBaseUrl, GEMINI_API_KEY: 'sk-test', AGENT_CLI_MODEL: 'gemini-2.5-pro' }),
    shell: 'mcp_task_shell',
    submit: 'mcp_task_submit',
    offered: (request) => toolsOf(request)?.flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name)),
    alsoOffered: [],
  },
];

for (const cli of CASES)
  describeWithDocker(`${cli.name} as the purple agent’s solver, through both agents, against a scripted stand-in of its provider`, () => {
    const scratch = new Scratch();
    let llm: FakeLlmServer;
    let green: AgentProcess;
    let purple: AgentProcess;
    let events: PeerEvent[];
    let result: AssessmentResult;

    beforeAll(async () => {
      llm = await FakeLlmServer.start();
      const [greenPort, purplePort] = [await freePort(), await freePort()];
      const env = { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
      [green, purple] = await Promise.all([
        startAgent('green-agent', env, greenPort),
        startAgent('purple-agent', { ...env, AGENT_CLI: cli.name, ...cli.env(llm) }, purplePort),
      ]);
      llm.script(
        toolCall(cli.shell, { command: 'head -5 /workspace/*_error.txt' }, { usage: { input: 900, output: 30 } }),
        toolCall(cli.shell, { command: WRITE }, { usage: { input: 1100, output: 120 } }),
        toolCall(cli.submit, {}, { usage: { input: 1300, output: 10 } }),
        reply('Submitted the root cause.', { usage: { input: 1400, output: 8 } }),
      );
      const request = { participants: { purple_agent: purple.url }, config: { task_ids: ['sample:1'] } };
      events = [];
      for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 600_000 }))
        events.push(event);
      const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
      if (!artifact)
        throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}\n${purple.log.slice(-3000)}`);
      result = artifact.data[0];
    }, 900_000);

    afterAll(async () => {
      await Promise.all([green?.stop(), purple?.stop()]);
      await llm?.close();
      scratch.remove();
    });

    it('scores the sample as its script answers it, with the CLI, its version and its usage in the Result', () => {
      const task = result.task_metrics['sample:1'];
      expect(task).toMatchObject({ status: 'scored', solver_exit_status: 'Submitted' });
      expect(task.model).toMatch(new RegExp(`^${cli.name}@\\d+\\.\\d+\\.\\d+/`));
      expect(result).toMatchObject({ n_scored: 1, file_acc_mean: 1, func_recall_mean: 1 });
      expect(task.input_tokens).toBeGreaterThan(0);
      expect(task.output_tokens).toBeGreaterThan(0);
      expect(llm.pending).toBe(0);
    });

    it('offers the model only the task’s tools in every turn: none that reaches the purple agent’s host', () => {
      const turns = llm.requests.map((request) => cli.offered(request)).filter((names): names is string[] => names !== undefined && names.length > 0);
      expect(turns.length).toBeGreaterThanOrEqual(4);
      for (const names of turns) expect([...names].sort()).toEqual([...cli.alsoOffered, cli.shell, cli.submit].sort());
    });

    it('showed the model each command’s output from the task’s sandbox', () => {
      // The third turn's request carries the answers to the first two commands: the crash report's head.
      expect(JSON.stringify(llm.requests.map((request) => request.body))).toMatch(/AddressSanitizer|ERROR|heap-buffer-overflow/);
    });
  });
