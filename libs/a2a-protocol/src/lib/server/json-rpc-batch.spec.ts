import { EchoExecutor } from '../testing/echo-executor.testing';
import { readJson, sendMessageBody } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';

// JSON-RPC 2.0, section 6 (Batch): an array of requests gets an array of their answers, notifications
// (requests with no id) none; an empty array is one Invalid Request; a batch of notifications gets nothing.
describe('a JSON-RPC batch sent to the endpoint', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor });
  });
  afterAll(() => agent.close());

  const post = (body: unknown) => fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const send = (id: unknown, text: string) => ({
    ...sendMessageBody(text),
    id,
    params: { message: { ...sendMessageBody(text).params.message, messageId: `m-${text}` } },
  });
  const notification = (text: string) => {
    const { id: _id, ...rest } = send(0, text);
    return rest;
  };

  it('answers each request of the batch in an array, a bad one with its own error and a non-object with id null', async () => {
    const response = await post([send(1, 'one'), { jsonrpc: '2.0', id: 2, method: 'tasks/get' }, 5]);
    const answers = (await readJson(response)) as unknown as { id: unknown; result?: { status: { state: string } }; error?: { code: number } }[];

    expect(response.status).toBe(200);
    expect(answers.map(({ id, result, error }) => [id, result?.status.state ?? error?.code])).toEqual([
      [1, 'completed'],
      [2, -32602],
      [null, -32600],
    ]);
  });

  it('answers an empty batch with one Invalid Request, not an array', async () => {
    const response = await post([]);

    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: the batch is empty' } });
  });

  it('runs the notifications of a batch but leaves their answers out, and sends nothing back for a batch of notifications only', async () => {
    const calls = agent.app.get(EchoExecutor).calls;

    const mixed = await readJson(await post([notification('quiet'), send('x', 'loud')]));
    const silent = await post([notification('hush')]);

    expect(mixed).toEqual([expect.objectContaining({ id: 'x' })]);
    expect(silent.status).toBe(204);
    expect(await silent.text()).toBe('');
    expect(calls.map((call) => call.text)).toEqual(expect.arrayContaining(['quiet', 'loud', 'hush']));
  });

  it('refuses a streaming call inside a batch with an Invalid Request of its own, and answers the others', async () => {
    const stream = { ...send(7, 'streamed'), method: 'message/stream' };

    const answers = await readJson(await post([stream, send(8, 'plain')]));

    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Invalid Request: a streaming method cannot be called in a batch; call it on its own' } },
      expect.objectContaining({ id: 8, result: expect.objectContaining({ kind: 'task' }) }),
    ]);
  });
});
