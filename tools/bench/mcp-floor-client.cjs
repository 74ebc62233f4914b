// The MCP SDK's own client in a process of its own, as a CLI's is, for the bench's MCP floor (mcp-floor.ts):
// `node mcp-floor-client.cjs <base url> <calls> <block> <path>...` opens a session on each path, then calls
// its `shell` tool `calls` times on each, `block` calls on one path, then on the next, in turn.
'use strict';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

async function main([base, calls, block, ...paths]) {
  const clients = [];
  for (const path of paths) {
    const client = new Client({ name: 'bench-floor', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}`)));
    clients.push(client);
  }
  for (let done = 0; done < Number(calls); done += Number(block)) {
    for (const client of clients) {
      for (let k = done; k < done + Number(block); k++) {
        await client.callTool({ name: 'shell', arguments: { command: `sed -n '${k},${k + 40}p' src/index.c` } });
      }
    }
  }
  for (const client of clients) await client.close();
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
