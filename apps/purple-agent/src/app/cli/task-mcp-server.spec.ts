import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TaskMcpServer } from './task-mcp-server';
import { RecordingTools } from './recording-tools.testing';

async function connect(server: TaskMcpServer, authorization = server.authorization): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization } } }));
  return client;
}

describe('the task as an MCP server (the official SDK client against it)', () => {
  let tools: RecordingTools;
  let server: TaskMcpServer;

  beforeEach(async () => {
    tools = new RecordingTools((command) => `ran ${command}`, { text: 'loc.json is missing', isError: true });
    server = await TaskMcpServer.start(tools);
  });

  afterEach(async () => {
    await server.close();
  });

  it('offers exactly shell and submit, and runs a command through the task', async () => {
    const client = await connect(server);
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(['shell', 'submit']);
    expect(listed.tools.find((tool) => tool.name === 'shell')?.inputSchema).toMatchObject({ required: ['command'] });

    const ran = await client.callTool({ name: 'shell', arguments: { command: 'ls /src' } });
    expect(ran).toMatchObject({ content: [{ type: 'text', text: '<returncode>0</returncode>\n<output>ran ls /src</output>' }], isError: false });
    const submitted = await client.callTool({ name: 'submit', arguments: {} });
    expect(submitted).toMatchObject({ content: [{ text: 'loc.json is missing' }], isError: true });
    expect(tools.commands).toEqual(['ls /src']);
    expect(tools.submitted).toBe(1);
    await client.close();
  });

  it('answers only its task: another token, or none, is refused before anything runs', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect(connect(server, 'Bearer not-the-token')).rejects.toThrow(/401|answers only its task/);
    const bare = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(bare.status).toBe(401);
    expect(tools.commands).toEqual([]);
  });

  it('ends with its task: once closed, nothing answers at its address', async () => {
    const { url } = server;
    await server.close();
    await expect(fetch(url, { method: 'POST', headers: { authorization: server.authorization }, body: '{}' })).rejects.toThrow();
    server = await TaskMcpServer.start(tools);
  });
});
