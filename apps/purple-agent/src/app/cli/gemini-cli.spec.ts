// The real Gemini CLI, at its pinned version, against the Gemini API stand-in and the task's real MCP server.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FakeLlmServer, httpError, reply, toolCall, type FakeLlmStep, type RecordedRequest } from '@arvo-rca/fake-llm';
import type { CliEvent, CliLaunch } from './agent-cli';
import { agentCliCache, installedCli } from './cli-install';
import { geminiCli } from './gemini-cli';
import { TASK_MCP_NAME, TaskMcpServer } from './task-mcp-server';
import { RecordingTools } from './recording-tools.testing';

jest.setTimeout(240_000);

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string;
  events: CliEvent[];
  launch: CliLaunch;
  requests: RecordedRequest[];
  tools: RecordingTools;
  home: string;
  workdir: string;
  ms: number;
}

/** Gemini CLI's own turns: streamed, and offering function declarations (auxiliary calls offer none). */
function turns(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => request.path.endsWith(':streamGenerateContent') && offered(request).length > 0);
}

function offered(request: RecordedRequest): string[] {
  const tools = (request.body as { tools?: { functionDeclarations?: { name: string }[] }[] }).tools ?? [];
  return tools.flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name)).sort();
}

function modelOf(request: RecordedRequest): string {
  return /\/models\/([^:]+):/.exec(request.path)?.[1] ?? '';
}

describe('Gemini CLI as the solver (the real CLI, the Gemini API stand-in, the task MCP server)', () => {
  let root: string;
  let outerHome: string;
  let packageDir: string;
  const savedHome = process.env['HOME'];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'gemini-cli-spec-'));
    outerHome = join(root, 'outer-home');
    mkdirSync(outerHome);
    packageDir = await installedCli(geminiCli, agentCliCache());
    process.env['HOME'] = outerHome;
  });

  afterAll(() => {
    process.env['HOME'] = savedHome;
    rmSync(root, { recursive: true, force: true });
  });

  async function run(name: string, steps: FakeLlmStep[]): Promise<Run> {
    const fake = (await FakeLlmServer.start({ apiKey: 'gemini-test-key' })).script(...steps);
    const tools = new RecordingTools((command) => `listing of ${command}: vuln.c`);
    const mcp = await TaskMcpServer.start(tools);
    const home = join(root, name, 'home');
    const workdir = join(root, name, 'work');
    mkdirSync(home, { recursive: true });
    mkdirSync(workdir, { recursive: true });
    try {
      const launch = geminiCli.launch({
        prompt: '--help is not what this is: find the root cause of the crash; run commands with the shell tool, then submit.',
        mcpUrl: mcp.url,
        mcpToken: mcp.token,
        mcpName: TASK_MCP_NAME,
        home,
        workdir,
        packageDir,
        env: {
          PATH: process.env['PATH'],
          HOME: outerHome,
          GEMINI_API_KEY: 'gemini-test-key',
          GOOGLE_GEMINI_BASE_URL: fake.geminiBaseUrl,
          ANTHROPIC_API_KEY: 'purple-secret',
          GREEN_AGENT_URL: 'http://green.invalid',
        },
      });
      for (const [path, text] of Object.entries(launch.files)) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
      }
      const started = Date.now();
      const child = spawn(process.execPath, launch.argv, { cwd: workdir, env: launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      const ms = Date.now() - started;
      const lines = stdout.split('\n').filter((line) => line.trim());
      const read = launch.read ?? ((line: string) => geminiCli.read(line));
      const events = lines.flatMap((line) => read(line));
      return { code, stdout: lines, stderr, events, launch, requests: fake.requests, tools, home, workdir, ms };
    } finally {
      await mcp.close();
      await fake.close();
    }
  }

  it('offers only the task tools, runs a shell call through the MCP server, submits, and reads usage and the final text', async () => {
    const finalText = 'Submitted: the overflow is in parse_header of vuln.c, where the length is not checked.';
    const result = await run('happy', [
      toolCall('mcp_task_shell', { command: 'ls /src' }, { text: 'Let me look at the sources.', usage: { input: 1200, output: 30, cacheRead: 800 } }),
      toolCall('mcp_task_submit', {}, { usage: { input: 400, output: 12, cacheRead: 1700 } }),
      reply(finalText, { usage: { input: 150, output: 25, cacheRead: 2100 } }),
    ]);
    const context = `exit ${result.code}; stderr: ${result.stderr.slice(-2000)}`;
    expect({ code: result.code, context }).toEqual({ code: 0, context });
    console.log(`gemini-cli ${geminiCli.version}: a three-turn run took ${result.ms} ms`);

    const agentTurns = turns(result.requests);
    expect(agentTurns).toHaveLength(3);
    for (const request of agentTurns) expect(offered(request)).toEqual(['mcp_task_shell', 'mcp_task_submit']);
    expect(JSON.stringify(agentTurns[0].body)).toContain('--help is not what this is: find the root cause');
    // Every request the CLI sent is one of the Gemini API's: its turns, and auxiliary calls with no tools (the
    // model router's classifier, as GEMINI_MODEL is unset), answered without taking a scripted step.
    for (const request of result.requests) expect(request.api).toBe('gemini');
    const auxiliary = result.requests.filter((request) => !agentTurns.includes(request));
    expect(auxiliary.map((request) => request.path)).toEqual([expect.stringMatching(/:generateContent$/)]);
    expect(auxiliary.map(offered)).toEqual([[]]);
    expect(result.tools.commands).toEqual(['ls /src']);
    expect(result.tools.submitted).toBe(1);
    expect(JSON.stringify(agentTurns[1].body)).toContain('listing of ls /src: vuln.c');
    expect(JSON.stringify(agentTurns[2].body)).toContain('submission accepted');

    const model = modelOf(agentTurns[0]);
    const usage = result.events.filter((event) => event.kind === 'usage' && event.usage.model === model);
    expect(usage).toEqual([{ kind: 'usage', usage: { model, input: 1750, output: 67, cacheRead: 4600, cacheWrite: 0, cost: null, calls: 1 } }]);
    expect(result.events.at(-1)).toEqual({ kind: 'done', text: finalText, isError: false });
    expect(result.events).toContainEqual({ kind: 'message', role: 'assistant', content: 'Let me look at the sources.' });
    expect(result.events).toContainEqual({ kind: 'message', role: 'assistant', content: '[tool call mcp_task_shell] {"command":"ls /src"}' });
  });

  it("refuses the CLI's own host tools: nothing runs on the host and no host file reaches the model", async () => {
    const sentinel = join(root, 'sentinel-shell');
    const written = join(root, 'sentinel-write');
    const result = await run('host-tools', [
      reply('', {
        toolCalls: [
          { name: 'run_shell_command', input: { command: `touch ${sentinel}` } },
          { name: 'read_file', input: { file_path: '/etc/passwd' } },
          { name: 'write_file', input: { file_path: written, content: 'written by the model' } },
        ],
      }),
      reply('I have no host tools.'),
    ]);
    expect(result.code).toBe(0);
    expect(existsSync(sentinel)).toBe(false);
    expect(existsSync(written)).toBe(false);
    expect(result.tools.commands).toEqual([]);
    const agentTurns = turns(result.requests);
    expect(agentTurns).toHaveLength(2);
    const answers = JSON.stringify(agentTurns[1].body);
    for (const name of ['run_shell_command', 'read_file', 'write_file']) expect(answers).toMatch(new RegExp(`"name":"${name}"`));
    expect(answers).toMatch(/not found/i);
    for (const request of result.requests) expect(JSON.stringify(request.body)).not.toMatch(/root:x?:0:0/);
  });

  it("ends with an error the reader reports when the model's API refuses the turn", async () => {
    const result = await run('api-error', [httpError(400, { message: 'the model was not found' })]);
    expect(result.code).not.toBe(0);
    // The refused turn's model used nothing (only the router's classifier did, and it is reported).
    const [turn] = turns(result.requests);
    const used = result.events.flatMap((event) => (event.kind === 'usage' ? [event.usage.model] : []));
    expect(used).not.toContain(modelOf(turn));
    expect(result.events).toContainEqual({ kind: 'message', role: 'system', content: expect.stringContaining('the model was not found') });
    expect(result.events.at(-1)).toEqual({ kind: 'done', text: '', isError: true });
  });

  it('passes nothing of the purple environment but what the CLI needs, and writes nothing outside its HOME and folder', async () => {
    const result = await run('confined', [reply('Nothing to do.')]);
    expect(result.code).toBe(0);
    expect(Object.keys(result.launch.env).sort()).toEqual(
      [
        'GEMINI_API_KEY',
        'GEMINI_CLI_NO_RELAUNCH',
        'GEMINI_CLI_SYSTEM_DEFAULTS_PATH',
        'GEMINI_CLI_SYSTEM_SETTINGS_PATH',
        'GOOGLE_GEMINI_BASE_URL',
        'HOME',
        'LANG',
        'NO_COLOR',
        'PATH',
        'TMPDIR',
      ].sort(),
    );
    expect(result.launch.env['HOME']).toBe(result.home);
    expect(readdirSync(outerHome)).toEqual([]);
    expect(readdirSync(join(root, 'confined')).sort()).toEqual(['home', 'work']);
    expect(readdirSync(join(result.home, '.gemini'))).toEqual(expect.arrayContaining(['settings.json']));
  });
});
