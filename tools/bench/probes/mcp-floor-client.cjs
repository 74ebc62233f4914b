// The MCP SDK's own client in a process of its own, as a CLI's is, for the bench's MCP floor (mcp-floor.ts):
// `node mcp-floor-client.cjs '{"targets": [{"url", "headers"}], "calls", "block"}'` opens a session on each
// target, then calls its `shell` tool `calls` times on each, `block` calls on one target, then on the next, in turn.
'use strict';
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

async function main({ targets, calls, block }) {
  const clients = [];
  for (const { url, headers } of targets) {
    const client = new Client({ name: 'bench-floor', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    clients.push(client);
  }
  for (let done = 0; done < calls; done += block) {
    for (const client of clients) {
      for (let k = done; k < done + block; k++) {
        await client.callTool({ name: 'shell', arguments: { command: `sed -n '${k},${k + 40}p' src/index.c` } });
      }
    }
  }
  for (const client of clients) await client.close();
}

main(JSON.parse(process.argv[2])).then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exit(1);
  },
);
