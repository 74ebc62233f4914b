// The real Codex CLI at its pinned version, launched as the run launches it, against the Responses API
// stand-in and the real task MCP server on loopback.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeLlmServer, reply, toolCall, type FakeLlmStep, type RecordedRequest } from '@arvo-rca/fake-llm';
import type { CliEvent } from './agent-cli';
import { agentCliCache, installedCli } from './cli-install';
import { codex } from './codex';
import { TASK_MCP_NAME, TaskMcpServer } from './task-mcp-server';
import { RecordingTools } from './recording-tools.testing';

const CACHE = agentCliCache();
const KEY = 'sk-codex-spec';

interface Run {
  code: number | null;
  events: CliEvent[];
  requests: RecordedRequest[];
  tools: RecordingTools;
  startMs: number;
  stderr: string;
}

let packageDir: string;
let scratch: string;
let processHome: string;
const realHome = process.env['HOME'];

beforeAll(async () => {
  packageDir = await installedCli(codex, CACHE);
  scratch = mkdtempSync(join(tmpdir(), 'codex-spec-'));
  // The test process's own HOME is an empty folder: the CLI must write nothing there (e.g. ~/.codex).
  processHome = join(scratch, 'process-home');
  mkdirSync(processHome);
  process.env['HOME'] = processHome;
}, 300_000);

afterAll(() => {
  process.env['HOME'] = realHome;
  rmSync(scratch, { recursive: true, force: true });
});

async function runCodex(name: string, steps: FakeLlmStep[]): Promise<Run> {
  const llm = await FakeLlmServer.start({ apiKey: KEY });
  llm.script(...steps);
  const tools = new RecordingTools();
  const mcp = await TaskMcpServer.start(tools);
  const home = join(scratch, name, 'home');
  const workdir = join(scratch, name, 'work');
  mkdirSync(home, { recursive: true });
  mkdirSync(workdir, { recursive: true });
  try {
    const env = { PATH: process.env['PATH'], OPENAI_API_KEY: KEY, OPENAI_BASE_URL: llm.openAiBaseUrl, SECRET_OF_THE_RUN: 'must-not-pass' };
    const prompt = 'Find the bug; run commands with shell, then submit.';
    const launch = codex.launch({ prompt, mcpUrl: mcp.url, mcpToken: mcp.token, mcpName: TASK_MCP_NAME, home, workdir, packageDir, env });
    expect(Object.keys(launch.env).sort()).toEqual(['CODEX_HOME', 'CODEX_TASK_MCP_TOKEN', 'HOME', 'LANG', 'OPENAI_API_KEY', 'PATH', 'TMPDIR']);
    for (const [path, text] of Object.entries(launch.files)) {
      expect(path.startsWith(home)).toBe(true);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
    const read = launch.read ?? codex.read;
    const started = Date.now();
    const child = spawn(process.execPath, launch.argv, { cwd: workdir, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const events = stdout.split('\n').flatMap((line) => read(line));
    const first = llm.requests[0]?.receivedAt ?? Date.now();
    return { code, events, requests: llm.requests, tools, startMs: first - started, stderr };
  } finally {
    await mcp.close();
    await llm.close();
  }
}

interface Body {
  tools?: Array<{ type: string; name?: string; tools?: Array<{ name: string }> }>;
  input?: unknown[];
}

/** The tools a request offers, a namespace's functions as `<namespace>__<function>`. */
function offeredTools(request: RecordedRequest): string[] {
  const body = request.body as Body;
  return (body.tools ?? [])
    .flatMap((tool) => (tool.type === 'namespace' ? (tool.tools ?? []).map((fn) => `${tool.name}__${fn.name}`) : [tool.name ?? tool.type]))
    .sort();
}

function outputsOf(request: RecordedRequest): string[] {
  const input = ((request.body as Body).input ?? []) as Array<{ type?: string; output?: unknown }>;
  return input.filter((item) => item.type === 'function_call_output').map((item) => JSON.stringify(item.output));
}

describe('Codex CLI (the real CLI at its pinned version)', () => {
  it('offers only the task MCP tools, runs shell through the MCP server, submits, and reads back usage and the final text', async () => {
    const run = await runCodex('happy', [
      toolCall('mcp__task__shell', { command: 'ls /src' }, { usage: { input: 1000, output: 20, cacheRead: 0 } }),
      toolCall('mcp__task__submit', {}, { text: 'The answer is in loc.json.', usage: { input: 100, output: 15, cacheRead: 1000 } }),
      reply('Submitted the answer.', { usage: { input: 50, output: 5, cacheRead: 1100 } }),
    ]);

    expect({ code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    for (const request of run.requests) {
      expect(request.headers['authorization']).toBe(`Bearer ${KEY}`);
      expect((request.body as { stream?: boolean }).stream).toBe(true);
      // The MCP server's tools, and the three MCP-resource tools Codex adds whenever an MCP server is
      // configured (they reach only the configured MCP servers; the task's has no resources).
      expect(offeredTools(request)).toEqual([
        'list_mcp_resource_templates',
        'list_mcp_resources',
        'mcp__task__shell',
        'mcp__task__submit',
        'read_mcp_resource',
      ]);
    }
    expect(run.tools.commands).toEqual(['ls /src']);
    expect(outputsOf(run.requests[1]).join()).toContain('ran: ls /src');
    expect(run.tools.submitted).toBe(1);
    expect(outputsOf(run.requests[2]).join()).toContain('submission accepted');
    expect(JSON.stringify(run.requests)).not.toContain('must-not-pass');

    const usage = run.events.filter((event) => event.kind === 'usage');
    expect(usage).toEqual([{ kind: 'usage', usage: { model: 'gpt-5.5', input: 1150, output: 40, cacheRead: 2100, cacheWrite: 0, cost: null, calls: 1 } }]);
    expect(run.events.filter((event) => event.kind === 'done')).toEqual([{ kind: 'done', text: 'Submitted the answer.', isError: false }]);
    expect(run.events).toContainEqual({ kind: 'message', role: 'assistant', content: 'task.shell({"command":"ls /src"})' });
    expect(run.events).toContainEqual({ kind: 'message', role: 'user', content: '<returncode>0</returncode>\n<output>ran: ls /src</output>' });
    expect(readdirSync(processHome)).toEqual([]);
    process.stdout.write(`codex start to first model request: ${run.startMs} ms\n`);
  }, 180_000);

  it("refuses the CLI's own host tools by their names: nothing runs on the host and no host file reaches the model", async () => {
    const sentinel = join(scratch, 'sentinel');
    const run = await runCodex('host-tools', [
      toolCall('shell', { command: ['bash', '-lc', `touch ${sentinel}`] }),
      toolCall('exec_command', { cmd: `touch ${sentinel}` }),
      toolCall('shell_command', { command: `touch ${sentinel}` }),
      toolCall('apply_patch', { input: `*** Begin Patch\n*** Add File: ${sentinel}\n+x\n*** End Patch\n` }),
      toolCall('view_image', { path: '/etc/passwd' }),
      toolCall('read_mcp_resource', { server: 'task', uri: 'file:///etc/passwd' }),
      reply('Nothing ran.'),
    ]);

    expect(run.code).toBe(0);
    expect(run.requests).toHaveLength(7);
    expect(existsSync(sentinel)).toBe(false);
    expect(run.tools.commands).toEqual([]);
    expect(JSON.stringify(run.requests)).not.toMatch(/root:x:0:0/);
    const answers = run.requests.slice(1).map((request) => outputsOf(request).at(-1) ?? '');
    for (const answer of answers.slice(0, 5)) expect(answer).toContain('unsupported call');
    // read_mcp_resource goes to the task's MCP server, which has no resources.
    expect(answers[5]).toContain('Method not found');
    expect(readdirSync(processHome)).toEqual([]);
  }, 180_000);
});
