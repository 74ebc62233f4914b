/* eslint-disable @nx/enforce-module-boundaries -- the task's MCP server is the purple agent's, measured in-process beside the bare SDK's. */
// The floor under the CLI adapter's per-step overhead: what the MCP SDK itself costs to answer one
// `tools/call` on loopback, on a bare SDK server whose tool answers at once, called by the SDK's own client in
// a process of its own (as a CLI calls), timed as the adapter is (the request's arrival to its answer leaving);
// and the task's own MCP server, with tools that answer at once, called the same way.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { TaskMcpServer } from '../../../apps/purple-agent/src/app/cli/task-mcp-server';
import { median } from '../report/bench-stats';
import { McpCallTimer, type SandboxGauge } from './mcp-call-timer';

export interface McpFloor {
  /** One server and session for every call (the SDK's stateful mode, as the task's MCP server serves). */
  stateful: number;
  /** A new server and transport per request (the SDK's stateless mode). */
  stateless: number;
  /** The task's MCP server itself, its tools answering at once: the SDK's and ours, without the CLI and CliAgent. */
  task_server: number;
}

/** What the floor's client calls: an MCP endpoint and the headers it needs. */
interface Target {
  url: string;
  headers: Record<string, string>;
}

const OUTPUT = 'x'.repeat(2048);
const WARMUP = 10;
const BLOCK = 10;

/** The median per-call time of each server over `calls` calls, in blocks taken in turn, after a warm-up block each. */
export async function measureMcpFloor(calls: number): Promise<McpFloor> {
  let answered = 0;
  const gauge: SandboxGauge = { spentMs: () => 0, commands: () => answered };
  const shell = async (): Promise<{ text: string; isError: boolean }> => {
    answered += 1;
    return { text: OUTPUT, isError: false };
  };
  const bare = (): McpServer => {
    const server = new McpServer({ name: 'floor', version: '1.0.0' });
    server.registerTool('shell', { description: 'Runs one command.', inputSchema: { command: z.string() } }, async () => {
      const { text, isError } = await shell();
      return { content: [{ type: 'text', text }], isError };
    });
    return server;
  };
  const stateful = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  await bare().connect(stateful);
  const http = await listen(async (request, response, body) => {
    if (request.url === '/stateful') return stateful.handleRequest(request, response, body);
    const server = bare();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    response.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  const task = await TaskMcpServer.start({ shell, submit: shell });
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const timers = {
    stateful: new McpCallTimer(gauge, '/stateful'),
    stateless: new McpCallTimer(gauge, '/stateless'),
    task_server: new McpCallTimer(gauge, '/mcp'),
  };
  const targets: Target[] = [
    { url: `${base}/stateful`, headers: {} },
    { url: `${base}/stateless`, headers: {} },
    { url: task.url, headers: { authorization: task.authorization } },
  ];
  try {
    await timers.stateful.during(() => timers.stateless.during(() => timers.task_server.during(() => runClient(targets, WARMUP + calls))));
    // The first calls of each server warmed it up.
    const measured = (timer: McpCallTimer): number => median(timer.overheadsMs.slice(WARMUP));
    return { stateful: measured(timers.stateful), stateless: measured(timers.stateless), task_server: measured(timers.task_server) };
  } finally {
    await task.close();
    await stateful.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

/** The SDK's client in a process of its own, calling each target `calls` times, in turns of BLOCK. */
async function runClient(targets: Target[], calls: number): Promise<void> {
  const child = spawn(process.execPath, [join(__dirname, 'mcp-floor-client.cjs'), JSON.stringify({ targets, calls, block: BLOCK })], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`the MCP floor's client ended with ${code}: ${stderr.slice(-2000)}`);
}

async function listen(handle: (request: IncomingMessage, response: ServerResponse, body: unknown) => Promise<void>): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      handle(request, response, text ? JSON.parse(text) : undefined).catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}
