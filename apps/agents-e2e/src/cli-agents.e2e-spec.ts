import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { FakeLlmServer, reply, toolCall, type RecordedRequest } from '@arvo-rca/fake-llm';
import type { AssessmentResult } from '@arvo-rca/results';
import { CliAgentStack, type CliName } from './support/processes/cli-agent-stack';

// sample:1's root cause (samples/1/patch.diff), as a CLI agent would write it.
const ANSWER = JSON.stringify({
  reasoning: 'the span is read past the buffer',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});
const WRITE = `cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF`;

interface CliCase {
  name: CliName;
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
    shell: 'mcp__task__shell',
    submit: 'mcp__task__submit',
    offered: (request) => toolsOf(request)?.map((tool) => tool.name ?? ''),
    alsoOffered: [],
  },
  {
    name: 'codex',
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
    shell: 'mcp_task_shell',
    submit: 'mcp_task_submit',
    offered: (request) => toolsOf(request)?.flatMap((tool) => (tool.functionDeclarations ?? []).map((fn) => fn.name)),
    alsoOffered: [],
  },
];

for (const cli of CASES)
  describeWithDocker(`${cli.name} as the purple agent’s solver, through both agents, against a scripted stand-in of its provider`, () => {
    let stack: CliAgentStack<FakeLlmServer>;
    let result: AssessmentResult;

    beforeAll(async () => {
      stack = await CliAgentStack.start(cli.name, await FakeLlmServer.start());
      stack.llm.script(
        toolCall(cli.shell, { command: 'head -5 /workspace/*_error.txt' }, { usage: { input: 900, output: 30 } }),
        toolCall(cli.shell, { command: WRITE }, { usage: { input: 1100, output: 120 } }),
        toolCall(cli.submit, {}, { usage: { input: 1300, output: 10 } }),
        reply('Submitted the root cause.', { usage: { input: 1400, output: 8 } }),
      );
      const assessment = await stack.assess(['sample:1']);
      if (!assessment.result) throw new Error(`no Result artifact; ${stack.explain(assessment.events)}`);
      result = assessment.result;
    }, 900_000);

    afterAll(async () => {
      await stack?.stop();
    });

    it('scores the sample as its script answers it, with the CLI, its version and its usage in the Result', () => {
      const task = result.task_metrics['sample:1'];
      expect(task).toMatchObject({ status: 'scored', solver_exit_status: 'Submitted' });
      expect(task.model).toMatch(new RegExp(`^${cli.name}@\\d+\\.\\d+\\.\\d+/`));
      expect(result).toMatchObject({ n_scored: 1, file_acc_mean: 1, func_recall_mean: 1 });
      expect(task.input_tokens).toBeGreaterThan(0);
      expect(task.output_tokens).toBeGreaterThan(0);
      expect(stack.llm.pending).toBe(0);
    });

    it('offers the model only the task’s tools in every turn: none that reaches the purple agent’s host', () => {
      const turns = stack.llm.requests.map((request) => cli.offered(request)).filter((names): names is string[] => names !== undefined && names.length > 0);
      expect(turns.length).toBeGreaterThanOrEqual(4);
      for (const names of turns) expect([...names].sort()).toEqual([...cli.alsoOffered, cli.shell, cli.submit].sort());
    });

    it('showed the model each command’s output from the task’s sandbox', () => {
      // The third turn's request carries the answers to the first two commands: the crash report's head.
      expect(JSON.stringify(stack.llm.requests.map((request) => request.body))).toMatch(/AddressSanitizer|ERROR|heap-buffer-overflow/);
    });
  });
