import { createHook } from 'node:async_hooks';
import { createServer, type Server, type Socket } from 'node:net';
import { A2aClientFactory } from './a2a-client.factory';
import { A2aPeerError } from './peer-error';
import type { PeerEvent } from './peer-events';
import { EchoExecutor } from '../testing/echo-executor.testing';
import { freePort, startTestAgent, type TestAgent } from '../testing/test-agent.testing';

async function collect(events: AsyncIterable<PeerEvent>): Promise<PeerEvent[]> {
  const all: PeerEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('A2aPeer against a real agent', () => {
  let agent: TestAgent;
  let echo: EchoExecutor;
  const clients = new A2aClientFactory();
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor });
    echo = agent.app.get(EchoExecutor);
  });
  afterAll(() => agent.close());

  it('sends a text with message/send in A2A 1.0 and returns the text of the answer', async () => {
    const reply = await clients.peer(agent.url).sendText('ctx-v1', 'execute: ls', { deadlineMs: 10_000 });

    expect(reply).toBe('echo: execute: ls');
    expect(echo.calls.at(-1)).toMatchObject({ text: 'execute: ls', contextId: 'ctx-v1', requestedVersion: '1.0' });
  });

  it('returns the text of a message answer as well', async () => {
    await expect(clients.peer(agent.url).sendText('ctx-msg', 'message: plain')).resolves.toBe('echo: plain');
  });

  it('streams with message/stream: the task, its status updates, and the final state', async () => {
    const events = await collect(clients.peer(agent.url).streamText('ctx-stream', 'solve it', { deadlineMs: 10_000 }));

    expect(events.map((event) => [event.kind, 'state' in event ? event.state : undefined, 'text' in event ? event.text : undefined])).toEqual([
      ['task', 'submitted', ''],
      ['status', 'working', 'working on: solve it'],
      ['status', 'completed', 'echo: solve it'],
    ]);
    expect(events.every((event) => event.contextId === 'ctx-stream')).toBe(true);
  });

  it('yields the data parts of a status beside its text: how a solver says its run ended', async () => {
    const events = await collect(clients.peer(agent.url).streamText('ctx-data', 'data {"exit_status": "ModelError", "reason": "401"}', { deadlineMs: 10_000 }));

    expect(events.at(-1)).toEqual({
      kind: 'status',
      taskId: expect.any(String),
      contextId: 'ctx-data',
      state: 'completed',
      text: 'echo: data',
      data: [{ exit_status: 'ModelError', reason: '401' }],
    });
    expect(events.slice(0, -1).every((event) => 'data' in event && event.data.length === 0)).toBe(true);
  });

  it('accepts the base URL with or without a trailing slash', async () => {
    const withoutSlash = agent.url.replace(/\/$/, '');

    await expect(clients.peer(withoutSlash).sendText('ctx-a', 'no slash')).resolves.toBe('echo: no slash');
    await expect(new A2aClientFactory().peer(agent.url).sendText('ctx-b', 'slash')).resolves.toBe('echo: slash');
    expect(clients.peer(withoutSlash)).toBe(clients.peer(agent.url));
  });

  // Under a second on a quiet machine (the bench's a2a_large_message figure tracks it against plain
  // JSON over loopback); the bounds are only there to end a hung call, and hold on a busy machine.
  it('carries long texts both ways, in sends and in streams', async () => {
    const long = `execute: ${'x'.repeat(3 * 1024 * 1024)}`;

    // The send's answer carries the text four times (its task's history and statuses), over the 8 MiB default bound on a reply.
    const roomy = new A2aClientFactory({ maxBodyBytes: 16 * 1024 * 1024 });
    await expect(roomy.peer(agent.url).sendText('ctx-long', long, { deadlineMs: 30_000 })).resolves.toBe(`echo: ${long}`);
    const events = await collect(clients.peer(agent.url).streamText('ctx-long', long, { deadlineMs: 30_000 }));
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed', text: `echo: ${long}` });
  }, 70_000);

  it('reports a failed task as an error that carries the reason', async () => {
    await expect(clients.peer(agent.url).sendText('ctx-fail', 'fail')).rejects.toMatchObject({
      code: 'PEER_TASK_FAILED',
      message: expect.stringContaining('failed on purpose'),
    });
  });

  it('gives up on a peer that does not answer at the call deadline, naming the peer and the deadline', async () => {
    const started = Date.now();
    const error = await clients
      .peer(agent.url)
      .sendText('ctx-hang', 'hang', { deadlineMs: 300 })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(A2aPeerError);
    expect(error).toMatchObject({ code: 'PEER_DEADLINE', message: `A2A peer ${agent.url} did not answer within 0.3 s` });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('leaves no timer of its deadline once a call is over: a turn of a long task would keep one for the whole task', async () => {
    // The runtime's own account of its timers: those of the calls' deadline that are still set.
    const pending = new Set<number>();
    const hook = createHook({
      init(id, type, _trigger, resource) {
        if (type === 'Timeout' && (resource as { _idleTimeout?: number })._idleTimeout === 1_800_000) pending.add(id);
      },
      destroy(id) {
        pending.delete(id);
      },
    }).enable();
    try {
      const peer = clients.peer(agent.url);
      for (let turn = 0; turn < 5; turn += 1) {
        await peer.sendText('ctx-turns', 'execute: ls', { deadlineMs: 1_800_000 });
        await collect(peer.streamText('ctx-turns', 'solve it', { deadlineMs: 1_800_000 }));
      }
      await new Promise((resolve) => setImmediate(resolve));

      expect(pending.size).toBe(0);
    } finally {
      hook.disable();
    }
  });

  it('applies the deadline to a whole stream', async () => {
    const error = await collect(clients.peer(agent.url).streamText('ctx-hang-stream', 'hang', { deadlineMs: 300 })).catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'PEER_DEADLINE', message: expect.stringContaining('did not finish its stream within 0.3 s') });
  });

  it('stops when the caller aborts, and says the call was abandoned', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    await expect(clients.peer(agent.url).sendText('ctx-abort', 'hang', { signal: controller.signal, deadlineMs: 10_000 })).rejects.toMatchObject({
      code: 'PEER_ABORTED',
    });
  });
});

describe('A2aPeer against a peer that speaks only A2A 0.3', () => {
  let agent: TestAgent;
  beforeAll(async () => {
    agent = await startTestAgent({ executor: EchoExecutor, versions: ['0.3'] });
  });
  afterAll(() => agent.close());

  it('reads its v0.3 card and talks to it in v0.3, for sends and streams', async () => {
    const peer = new A2aClientFactory().peer(agent.url);

    await expect(peer.sendText('ctx-old', 'hello')).resolves.toBe('echo: hello');
    const events = await collect(peer.streamText('ctx-old', 'stream'));
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed', text: 'echo: stream' });
    expect(agent.app.get(EchoExecutor).calls.map((call) => call.requestedVersion)).toEqual(['0.3', '0.3']);
  });

  it('gets the data parts of a v0.3 status too', async () => {
    const events = await collect(new A2aClientFactory().peer(agent.url).streamText('ctx-old-data', 'data {"exit_status": "Submitted"}'));

    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed', text: 'echo: data', data: [{ exit_status: 'Submitted' }] });
  });
});

describe('A2aPeer against peers that are not there', () => {
  it('names a refused connection clearly', async () => {
    const port = await freePort();
    const error = await new A2aClientFactory()
      .peer(`http://127.0.0.1:${port}`)
      .sendText('ctx', 'hi', { deadlineMs: 5_000 })
      .catch((e: unknown) => e);

    expect(error).toMatchObject({ code: 'PEER_UNREACHABLE', message: expect.stringContaining(`A2A peer http://127.0.0.1:${port}/ cannot be reached`) });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  describe('a peer that accepts connections and never answers', () => {
    let server: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      server = createServer((socket) => sockets.add(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    });

    it('is given up at the call deadline', async () => {
      const { port } = server.address() as { port: number };
      const error = await new A2aClientFactory()
        .peer(`http://127.0.0.1:${port}/`)
        .sendText('ctx', 'hi', { deadlineMs: 200 })
        .catch((e: unknown) => e);

      expect(error).toMatchObject({ code: 'PEER_DEADLINE', message: `A2A peer http://127.0.0.1:${port}/ did not answer within 0.2 s` });
    });
  });
});
