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
    // Each request's answer is followed by the hook (the initialize's and the listing's, too).
    expect(tools.events.slice(-4)).toEqual(['shell ls /src', 'answered', 'submit', 'answered']);
    await client.close();
  });

  it('answers only its task: another token, or none, is refused before anything runs', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    await expect(connect(server, 'Bearer not-the-token')).rejects.toThrow(/401|answers only its task/);
    const bare = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(bare.status).toBe(401);
    expect(tools.commands).toEqual([]);
  });

  it('keeps a session from its initialize to its end: a call in none, or in an ended one, is refused before anything runs', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: server.authorization } } });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(transport);
    const session = transport.sessionId as string;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    await client.callTool({ name: 'shell', arguments: { command: 'echo in the session' } });
    await transport.terminateSession();
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'shell', arguments: { command: 'echo outside' } } };
    const post = (headers: Record<string, string>): Promise<Response> =>
      fetch(server.url, {
        method: 'POST',
        headers: { authorization: server.authorization, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(call),
      });

    const ended = await post({ 'mcp-session-id': session });
    const none = await post({});

    expect(ended.status).toBe(404);
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ error: { message: 'no session: send initialize first' } });
    expect(tools.commands).toEqual(['echo in the session']);
    await client.close();
  });

  it('answers a batch of calls in one JSON body, in order, and a notification alone with 202 and no body', async () => {
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: server.authorization } } });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(transport);
    const post = (body: unknown): Promise<Response> =>
      fetch(server.url, {
        method: 'POST',
        headers: { authorization: server.authorization, 'content-type': 'application/json', 'mcp-session-id': transport.sessionId as string },
        body: JSON.stringify(body),
      });
    const call = (id: number, command: string): object => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'shell', arguments: { command } } });

    const batch = await post([call(21, 'echo one'), call(22, 'echo two')]);
    const note = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });

    expect(batch.status).toBe(200);
    expect(batch.headers.get('mcp-session-id')).toBe(transport.sessionId);
    const answers = (await batch.json()) as { id: number; result: { content: { text: string }[] } }[];
    expect(answers.map((answer) => [answer.id, answer.result.content[0].text])).toEqual([
      [21, '<returncode>0</returncode>\n<output>ran echo one</output>'],
      [22, '<returncode>0</returncode>\n<output>ran echo two</output>'],
    ]);
    expect([note.status, await note.text()]).toEqual([202, '']);
    expect(tools.commands).toEqual(['echo one', 'echo two']);
    await client.close();
  });

  it('ends with its task: once closed, nothing answers at its address', async () => {
    const { url } = server;
    await server.close();
    await expect(fetch(url, { method: 'POST', headers: { authorization: server.authorization }, body: '{}' })).rejects.toThrow();
    server = await TaskMcpServer.start(tools);
  });
});
