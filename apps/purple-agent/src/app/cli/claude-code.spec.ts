// The real Claude Code at its pinned version, launched as the purple agent launches it, against the
// Anthropic stand-in and a real task MCP server whose tools only record what they were asked.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { asideWithoutTools, FakeLlmServer, httpError, reply, toolCall, type FakeLlmStep } from '@arvo-rca/fake-llm';
import type { CliEvent, CliModelUsage } from './agent-cli';
import { CLAUDE_CODE, claudeCodeToolNames } from './claude-code';
import { ClaudeCodeReader } from './claude-code-reader';
import { agentCliCache, installedCli } from './cli-install';
import { TASK_MCP_NAME, TaskMcpServer, type TaskTools } from './task-mcp-server';
import { RecordingTools } from './recording-tools.testing';

interface Run {
  code: number | null;
  events: CliEvent[];
  lines: string[];
  /** The CLI's own start event, as it printed it. */
  init: { messaging_socket_path?: string; memory_paths?: unknown; permissionMode?: string; analytics_disabled?: boolean };
  stderr: string;
  home: string;
  workdir: string;
  startedMs: number;
}

const TOOL_NAMES = claudeCodeToolNames(TASK_MCP_NAME);
const RUN_LIMIT_MS = 150_000; // below the tests' own timeout, so that no CLI outlives its test
let root: string;
let packageDir: string;
let testHome: string;
let testTmp: string;
const saved = { HOME: process.env['HOME'], TMPDIR: process.env['TMPDIR'] };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'claude-code-spec-'));
  packageDir = await installedCli(CLAUDE_CODE, agentCliCache());
  // The test process's own HOME and TMPDIR are fresh folders too: the CLI must write into neither.
  testHome = join(root, 'test-home');
  testTmp = join(root, 'test-tmp');
  mkdirSync(testHome);
  mkdirSync(testTmp);
  process.env['HOME'] = testHome;
  process.env['TMPDIR'] = testTmp;
}, 600_000);

afterAll(() => {
  process.env['HOME'] = saved.HOME;
  process.env['TMPDIR'] = saved.TMPDIR;
  rmSync(root, { recursive: true, force: true });
});

async function runCli(fake: FakeLlmServer, tools: TaskTools, prompt: string, options: { model?: string; key?: string } = {}): Promise<Run> {
  const mcp = await TaskMcpServer.start(tools);
  const home = mkdtempSync(join(root, 'home-'));
  const workdir = mkdtempSync(join(root, 'work-'));
  try {
    const env = {
      ...process.env,
      ANTHROPIC_API_KEY: options.key ?? 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.anthropicBaseUrl,
      PURPLE_SECRET: 'not-for-the-cli',
    };
    const launch = CLAUDE_CODE.launch({
      prompt,
      mcpUrl: mcp.url,
      mcpToken: mcp.token,
      mcpName: TASK_MCP_NAME,
      home,
      workdir,
      packageDir,
      model: options.model,
      env,
    });
    for (const [path, text] of Object.entries(launch.files)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
    const started = Date.now();
    // A group of its own: the launcher's native child goes with it when a run outlasts RUN_LIMIT_MS.
    const child = spawn(process.execPath, launch.argv, { cwd: workdir, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const limit = setTimeout(() => process.kill(-(child.pid as number), 'SIGKILL'), RUN_LIMIT_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(limit);
    const lines = stdout.split('\n');
    const events = lines.flatMap((line) => (launch.read ?? CLAUDE_CODE.read)(line));
    const init = JSON.parse(lines.find((line) => line.includes('"subtype":"init"')) ?? '{}') as Run['init'];
    return { code, events, lines, init, stderr, home, workdir, startedMs: Date.now() - started };
  } finally {
    await mcp.close();
  }
}

/** The names of the tools each request offered the model. */
function offered(fake: FakeLlmServer): string[][] {
  return fake.requests.map((request) => ((request.body as { tools?: { name: string }[] }).tools ?? []).map((tool) => tool.name).sort());
}

/** The result line as if the CLI had also called a side model it streamed nothing of. */
function withSideModel(line: string): string {
  const result = JSON.parse(line) as { modelUsage: Record<string, unknown> };
  result.modelUsage['claude-side-model'] = { inputTokens: 7, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, costUSD: 0.001 };
  return JSON.stringify(result);
}

function usages(events: CliEvent[]): CliModelUsage[] {
  return events.flatMap((event) => (event.kind === 'usage' ? [event.usage] : []));
}

function expectConfined(run: Run): void {
  // Nothing in the workdir, the test's HOME or TMPDIR; no transcript kept in the CLI's HOME.
  expect(readdirSync(run.workdir)).toEqual([]);
  expect(readdirSync(testHome)).toEqual([]);
  expect(readdirSync(testTmp)).toEqual([]);
  expect(existsSync(join(run.home, '.claude', 'projects'))).toBe(false);
  // Its messaging socket, when it has opened it by the start event, is under its own TMPDIR; no memory
  // folder, no analytics, no prompts.
  expect(run.init.messaging_socket_path ?? join(run.home, 'tmp', 'not-open-yet')).toMatch(new RegExp(`^${join(run.home, 'tmp')}/`));
  expect(run.init).toMatchObject({ permissionMode: 'dontAsk', analytics_disabled: true });
  expect(run.init.memory_paths).toBeUndefined();
}

describe('Claude Code as the solver (the real CLI against the Anthropic stand-in)', () => {
  let fake: FakeLlmServer;
  beforeEach(async () => {
    // Requests that offer none of the task's tools would be the CLI's side calls; the count below shows it sends none.
    fake = await FakeLlmServer.start({ apiKey: 'sk-ant-test', aside: asideWithoutTools('mcp__') });
  });
  afterEach(async () => {
    await fake.close();
  });

  it('offers the model only the task tools, runs shell through the MCP server, submits and ends with the scripted usage', async () => {
    const steps: FakeLlmStep[] = [
      toolCall('mcp__task__shell', { command: 'ls /src' }, { text: 'Let me look.', usage: { input: 1200, output: 40, cacheRead: 0, cacheWrite: 3000 } }),
      toolCall('mcp__task__submit', {}, { usage: { input: 150, output: 12, cacheRead: 3000, cacheWrite: 90 } }),
      reply('Submitted: the overflow is in parser.c.', { usage: { input: 30, output: 9, cacheRead: 3090, cacheWrite: 0 } }),
    ];
    fake.script(...steps);
    const tools = new RecordingTools((command) => `listing of ${command}: crash.c parser.c`);

    const run = await runCli(fake, tools, '--find the crash: the task prompt may start with dashes', { model: 'claude-sonnet-5-5' });

    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(fake.requests).toHaveLength(steps.length);
    expect(offered(fake)).toEqual(steps.map(() => TOOL_NAMES));
    expect(fake.requests.every((request) => request.path === '/v1/messages' && (request.body as { stream?: boolean }).stream === true)).toBe(true);
    expect(JSON.stringify((fake.requests[0].body as { messages: unknown[] }).messages[0])).toContain('--find the crash');
    expect(tools.commands).toEqual(['ls /src']);
    expect(tools.submitted).toBe(1);
    expect(JSON.stringify(fake.requests[1].body)).toContain('listing of ls /src: crash.c parser.c');
    expect(JSON.stringify(fake.requests[2].body)).toContain('submission accepted');

    expect(fake.requests.map((request) => (request.body as { model?: string }).model)).toEqual(steps.map(() => 'claude-sonnet-5-5'));
    // One usage event per model call, as each call's stream ends, and nothing more from the result line.
    const model = 'claude-sonnet-5-5';
    expect(usages(run.events)).toEqual([
      { model, input: 1200, output: 40, cacheRead: 0, cacheWrite: 3000, cost: null, calls: 1 },
      { model, input: 150, output: 12, cacheRead: 3000, cacheWrite: 90, cost: null, calls: 1 },
      { model, input: 30, output: 9, cacheRead: 3090, cacheWrite: 0, cost: null, calls: 1 },
    ]);
    // Read line by line without the run (no earlier lines), the result line's totals count once.
    expect(usages(run.lines.flatMap((line) => CLAUDE_CODE.read(line)))).toEqual([
      { model, input: 1380, output: 61, cacheRead: 6090, cacheWrite: 3090, cost: expect.any(Number), calls: 3 },
    ]);
    // A side model's calls, which the CLI reports in the result line only, are added from there.
    const lines = run.lines.map((line) => (line.includes('"type":"result"') ? withSideModel(line) : line));
    const reader = new ClaudeCodeReader();
    expect(usages(lines.flatMap((line) => reader.read(line))).slice(3)).toEqual([
      { model: 'claude-side-model', input: 7, output: 5, cacheRead: 0, cacheWrite: 0, cost: null, calls: 1 },
    ]);
    expect(run.events.at(-1)).toEqual({ kind: 'done', text: 'Submitted: the overflow is in parser.c.', isError: false });
    const said = run.events.flatMap((event) => (event.kind === 'message' ? [`${event.role}: ${event.content}`] : []));
    expect(said).toEqual([
      `system: claude-code started: model claude-sonnet-5-5, tools ${TOOL_NAMES.join(', ')}`,
      'assistant: Let me look.',
      'assistant: [tool call mcp__task__shell] {"command":"ls /src"}',
      'user: [tool result] <returncode>0</returncode>\n<output>listing of ls /src: crash.c parser.c</output>',
      'assistant: [tool call mcp__task__submit] {}',
      'user: [tool result] submission accepted',
      'assistant: Submitted: the overflow is in parser.c.',
    ]);
    expectConfined(run);
    process.stdout.write(`claude-code ${CLAUDE_CODE.version}: three model calls in ${run.startedMs} ms from spawn to exit\n`);
  }, 180_000);

  it("refuses the CLI's own host tools by their names: nothing runs on the host and no file's text reaches the model", async () => {
    const sentinel = join(root, 'sentinel-bash');
    const written = join(root, 'sentinel-write');
    const passwd = readFileSync('/etc/passwd', 'utf8').split('\n')[0];
    fake.script(
      toolCall('Bash', { command: `touch ${sentinel}`, description: 'make a file' }),
      toolCall('Read', { file_path: '/etc/passwd' }),
      toolCall('Write', { file_path: written, content: 'x' }),
      toolCall('Agent', { description: 'helper', prompt: `run touch ${sentinel}`, subagent_type: 'general-purpose' }),
      toolCall('WebFetch', { url: 'http://127.0.0.1:9/', prompt: 'read it' }),
      reply('I could not use those tools.'),
    );
    const tools = new RecordingTools((command) => `listing of ${command}: crash.c parser.c`);

    const run = await runCli(fake, tools, 'Find the bug.');

    expect(run.code).toBe(0);
    expect(fake.requests).toHaveLength(6);
    expect(offered(fake)).toEqual(fake.requests.map(() => TOOL_NAMES));
    expect(existsSync(sentinel)).toBe(false);
    expect(existsSync(written)).toBe(false);
    expect(passwd.length).toBeGreaterThan(5);
    expect(fake.requests.some((request) => JSON.stringify(request.body).includes(passwd))).toBe(false);
    const results = run.events.flatMap((event) => (event.kind === 'message' && event.role === 'user' ? [event.content] : []));
    expect(results).toHaveLength(5);
    for (const [index, name] of ['Bash', 'Read', 'Write', 'Agent', 'WebFetch'].entries()) {
      expect(results[index]).toMatch(new RegExp(`^\\[tool result, error\\] .*No such tool available: ${name}`));
    }
    expect(tools.commands).toEqual([]);
    expect(run.events.at(-1)).toEqual({ kind: 'done', text: 'I could not use those tools.', isError: false });
    expectConfined(run);
  }, 180_000);

  it('tells of a retried model call and ends a run the API refuses with a done event that is an error and says why', async () => {
    fake.script(httpError(429, { retryAfter: 1 }), httpError(400, { message: 'prompt is too long: 300000 tokens > 200000 maximum' }));

    const run = await runCli(fake, new RecordingTools((command) => `listing of ${command}: crash.c parser.c`), 'Find the bug.');

    expect(run.code).not.toBe(0);
    expect(fake.requests).toHaveLength(2);
    expect(run.events.filter((event) => event.kind === 'usage')).toEqual([]);
    expect(run.events).toContainEqual({ kind: 'message', role: 'system', content: expect.stringMatching(/^model API error 429 .*try 1 of \d+ again/) });
    expect(run.events.at(-1)).toEqual({ kind: 'done', text: expect.stringMatching(/prompt is too long/i), isError: true });
    expect(CLAUDE_CODE.read('not an event')).toEqual([]);
  }, 180_000);
});
