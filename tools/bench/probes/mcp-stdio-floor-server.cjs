// The stdio floor of the CLI adapter's step (cli-floor-run.ts): a bare MCP server on stdio, the SDK's McpServer
// whose `shell` and `submit` answer at once, started by the CLI itself as its MCP server. It times each
// `tools/call` of `shell` from the message's arrival to its answer written to stdout, and appends each time
// (ms) as a line to the file its argument names: `node mcp-stdio-floor-server.cjs <times-file>`.
'use strict';
const { appendFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const OUTPUT = `<returncode>0</returncode>\n<output>\n${'x'.repeat(2048)}\n</output>`;
const timesFile = process.argv[2];
const arrivals = new Map();

async function main() {
  const server = new McpServer({ name: 'task', version: '1.0.0' });
  server.registerTool('shell', { description: 'Runs one command.', inputSchema: { command: z.string() } }, async () => ({
    content: [{ type: 'text', text: OUTPUT }],
    isError: false,
  }));
  server.registerTool('submit', { description: 'Submits.' }, async () => ({
    content: [{ type: 'text', text: 'Submitted. End your turn now.' }],
    isError: false,
  }));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // Wrapped once connected: the arrival of each shell call (parsed off stdin), and its answer's write.
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.method === 'tools/call' && message.params?.name === 'shell') arrivals.set(message.id, performance.now());
    deliver?.(message, extra);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message, options) => {
    await send(message, options);
    const at = arrivals.get(message.id);
    if (at === undefined || message.method !== undefined) return;
    arrivals.delete(message.id);
    appendFileSync(timesFile, `${performance.now() - at}\n`);
  };
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
