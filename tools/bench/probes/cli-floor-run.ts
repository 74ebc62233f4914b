/* eslint-disable @nx/enforce-module-boundaries -- the floor under the purple agent's CLI adapter: its CLI launch and MCP transport, with nothing of CliAgent. */
// The floor under a CLI adapter's step, for each CLI's own MCP client: the same real CLI, on the same
// scripted task, against a bare server: the SDK's McpServer with tools that answer at once (no token, no
// CliAgent, no observation template, no trajectory), over the task server's transport, timed as the adapter
// is. What the adapter costs above this is ours; this is what any MCP server costs that CLI. And the nearest
// alternative to the adapter's loopback HTTP: the same bare server on stdio, started by the CLI itself.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { MCP_TOOL_TIMEOUT_MS, type AgentCli, type CliLaunch } from '../../../apps/purple-agent/src/app/cli/agent-cli';
import { CliProcess } from '../../../apps/purple-agent/src/app/cli/cli-process';
import { cliPrompt } from '../../../apps/purple-agent/src/app/cli/cli-prompt';
import { JsonResponseTransport } from '../../../apps/purple-agent/src/app/cli/json-response-transport';
import { TASK_MCP_NAME } from '../../../apps/purple-agent/src/app/cli/task-mcp-server';
import { McpCallTimer, type SandboxGauge } from './mcp-call-timer';

/** What a `shell` call answers: about what the observation template shows of a 2 KB output. */
const OUTPUT = `<returncode>0</returncode>\n<output>\n${'x'.repeat(2048)}\n</output>`;

/** A bare MCP server on loopback: one McpServer per session, `shell` and `submit` answering at once. */
class BareMcpServer implements SandboxGauge {
  private calls = 0;
  private readonly sessions = new Map<string, JsonResponseTransport>();

  private constructor(private readonly http: Server) {}

  static async start(): Promise<BareMcpServer> {
    const http = createServer();
    const bare = new BareMcpServer(http);
    http.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => void bare.handle(request, chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined, response));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
    return bare;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  spentMs(): number {
    return 0;
  }

  commands(): number {
    return this.calls;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((transport) => transport.close()));
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, body: unknown, response: Parameters<JsonResponseTransport['handle']>[1]): Promise<void> {
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? this.sessions.get(id) : undefined;
    if (!transport && request.method === 'POST' && isInitializeRequest(body)) transport = await this.open();
    if (!transport || request.method !== 'POST') {
      response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    transport.handle(body as Parameters<JsonResponseTransport['handle']>[0], response);
  }

  private async open(): Promise<JsonResponseTransport> {
    const transport = new JsonResponseTransport(randomUUID());
    this.sessions.set(transport.sessionId, transport);
    const server = new McpServer({ name: TASK_MCP_NAME, version: '1.0.0' });
    server.registerTool('shell', { description: 'Runs one command.', inputSchema: { command: z.string() } }, async () => {
      this.calls += 1;
      return { content: [{ type: 'text', text: OUTPUT }], isError: false };
    });
    server.registerTool('submit', { description: 'Submits.' }, async () => ({
      content: [{ type: 'text', text: 'Submitted. End your turn now.' }],
      isError: false,
    }));
    await server.connect(transport);
    return transport;
  }
}

export interface FloorRunInput {
  cli: AgentCli;
  packageDir: string;
  model: string;
  env: Record<string, string | undefined>;
  description: string;
  /** The `shell` calls the CLI's script makes. */
  steps: number;
}

/** One scripted run of the CLI against the bare server (its model scripted by the caller), on `transport`; its `shell` calls' times (ms). */
export async function floorRun(input: FloorRunInput, transport: 'http' | 'stdio'): Promise<number[]> {
  const bare = await BareMcpServer.start();
  const home = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-floor-home-'));
  const workdir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-floor-work-'));
  const timesFile = join(workdir, '..', `${workdir.split('/').at(-1)}.times`);
  const timer = new McpCallTimer(bare);
  let cli: CliProcess | undefined;
  try {
    const { cli: agent, packageDir, model, env } = input;
    const http = agent.launch({
      prompt: cliPrompt(input.description),
      mcpUrl: bare.url,
      mcpToken: 'floor',
      mcpName: TASK_MCP_NAME,
      home,
      workdir,
      packageDir,
      model,
      env,
    });
    const launch = transport === 'http' ? http : onStdio(http, [join(__dirname, 'mcp-stdio-floor-server.cjs'), timesFile]);
    const end = await timer.during(async () => {
      cli = CliProcess.start({ launch, cwd: workdir, folders: [home, workdir], onLine: () => undefined });
      return cli.ended;
    });
    const times = transport === 'http' ? timer.overheadsMs : (await readFile(timesFile, 'utf8').catch(() => '')).split('\n').filter(Boolean).map(Number);
    if (times.length !== input.steps)
      throw new Error(
        `the ${transport} floor's ${agent.name} run ended (${end.signal ?? end.code}) after ${times.length} of ${input.steps} commands: ${end.stderr.slice(-500)}`,
      );
    return times;
  } finally {
    cli?.kill();
    await bare.close();
    await Promise.all([home, workdir, timesFile].map((path) => rm(path, { recursive: true, force: true })));
  }
}

/** The launch with its MCP server on stdio instead: `node <args>`, started by the CLI, in each CLI's own config. */
function onStdio(launch: CliLaunch, args: string[]): CliLaunch {
  const command = process.execPath;
  const files = { ...launch.files };
  for (const [path, text] of Object.entries(files)) {
    // Claude Code's --mcp-config file, Gemini CLI's settings.json: a JSON `mcpServers` entry.
    if (path.endsWith('.json') && text.includes('"mcpServers"')) {
      const config = JSON.parse(text) as { mcpServers: Record<string, Record<string, unknown>> };
      const { url, httpUrl, headers, type, ...kept } = config.mcpServers[TASK_MCP_NAME];
      void [url, httpUrl, headers];
      config.mcpServers[TASK_MCP_NAME] = { ...kept, ...(type ? { type: 'stdio' } : {}), command, args, timeout: MCP_TOOL_TIMEOUT_MS };
      files[path] = JSON.stringify(config);
    }
    // Codex's config.toml: the server's url and token variable give way to a command.
    if (path.endsWith('config.toml'))
      files[path] = text.replace(/^url = .*\nbearer_token_env_var = .*$/m, `command = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}`);
  }
  return { ...launch, files };
}
