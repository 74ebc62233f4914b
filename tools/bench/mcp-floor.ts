// The floor under the CLI adapter's per-step overhead: what the MCP SDK itself costs to answer one
// `tools/call` on loopback, on a bare SDK server whose tool answers at once, called by the SDK's own client,
// timed as the adapter is (the request's arrival to its answer leaving).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { median } from './bench-stats';
import { McpCallTimer } from './mcp-call-timer';

export interface McpFloor {
  /** One server and session for every call (the SDK's stateful mode, as the task's MCP server serves). */
  stateful: number;
  /** A new server and transport per request (the SDK's stateless mode). */
  stateless: number;
}

const OUTPUT = 'x'.repeat(2048);
const WARMUP = 20;
const BLOCK = 10;

/** The median per-call time of each mode over `calls` calls, in blocks taken in turn. */
export async function measureMcpFloor(calls: number): Promise<McpFloor> {
  let answered = 0;
  const gauge = { spentMs: () => 0, commands: () => answered };
  const bare = (): McpServer => {
    const server = new McpServer({ name: 'floor', version: '1.0.0' });
    server.registerTool('shell', { description: 'Runs one command.', inputSchema: { command: z.string() } }, async () => {
      answered += 1;
      return { content: [{ type: 'text', text: OUTPUT }], isError: false };
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
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const ways = { stateless: new McpCallTimer(gauge, '/stateless'), stateful: new McpCallTimer(gauge, '/stateful') };
  const clients: Client[] = [];
  try {
    for (const path of Object.keys(ways)) {
      const client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/${path}`)));
      clients.push(client);
      await callTimes(client, WARMUP);
    }
    await ways.stateless.during(() =>
      ways.stateful.during(async () => {
        for (let done = 0; done < calls; done += BLOCK) for (const client of clients) await callTimes(client, BLOCK);
      }),
    );
    return { stateless: median(ways.stateless.overheadsMs), stateful: median(ways.stateful.overheadsMs) };
  } finally {
    for (const client of clients) await client.close();
    await stateful.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  }
}

async function callTimes(client: Client, times: number): Promise<void> {
  for (let k = 0; k < times; k++) await client.callTool({ name: 'shell', arguments: { command: `sed -n '${k},${k + 40}p' src/index.c` } });
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
