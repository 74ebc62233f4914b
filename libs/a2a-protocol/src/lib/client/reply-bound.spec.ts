import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DEFAULT_MAX_BODY_BYTES } from '../server/a2a-server.tokens';
import { A2aClientFactory } from './a2a-client.factory';
import { createHttpFetch } from './http-fetch';
import { completedTask, filler, HostilePeer, type Answer } from './hostile-peer.testing';
import type { PeerEvent } from './peer-events';

const MiB = 1024 * 1024;
const HUGE = 1.5 * 1024 ** 3;
const ROOT = resolve(__dirname, '../../../../..');
const JSON_TYPE = { 'content-type': 'application/json' };
const EVENTS_TYPE = { 'content-type': 'text/event-stream' };
// What loopback socket buffers may take in after the client stopped reading, and the server still counts as written.
const SOCKET_SLACK = 32 * MiB;

// A reply of exactly `bytes`: a completed task, then spaces.
function exact(id: unknown, bytes: number, headers: Answer['headers']): Answer {
  const reply = completedTask(id, 'x'.repeat(bytes - 1024));
  const body = reply + ' '.repeat(bytes - Buffer.byteLength(reply));
  return { headers, piece: () => body, limitBytes: bytes, end: true };
}

const endless = (headers: Answer['headers'], piece: (index: number) => string, limitBytes = 256 * MiB): Answer => ({ headers, piece, limitBytes, end: false });

const peer = new HostilePeer({
  // Declares 1.5 GB and starts to send them (16 MiB of them, then holds).
  declared: () => endless({ ...JSON_TYPE, 'content-length': String(HUGE) }, filler, 16 * MiB),
  // Chunked, no end in sight (a bounded loop, 256 MiB, then holds).
  endless: () => endless(JSON_TYPE, filler),
  // An event stream nobody asked for: the reply to a message/send, which the SDK reads whole.
  unasked: () => endless(EVENTS_TYPE, filler),
  // 1.5 GB, chunked, made as it is sent.
  huge: () => ({ headers: JSON_TYPE, piece: filler, limitBytes: HUGE, end: true }),
  small: (id) => exact(id, 4096, JSON_TYPE),
  'at-bound-chunked': (id) => exact(id, DEFAULT_MAX_BODY_BYTES, JSON_TYPE),
  'at-bound-declared': (id) => exact(id, DEFAULT_MAX_BODY_BYTES, { ...JSON_TYPE, 'content-length': String(DEFAULT_MAX_BODY_BYTES) }),
  // One event's line that never ends, and one event of data lines that never ends.
  'endless-line': () => endless(EVENTS_TYPE, (index) => (index === 0 ? 'data: ' : 'x'.repeat(64 * 1024))),
  'endless-event': () => endless(EVENTS_TYPE, () => `data: ${'x'.repeat(64 * 1024 - 7)}\n`),
});

async function failure(call: Promise<unknown>): Promise<Error & { code?: string }> {
  return call.then(
    () => new Error('it answered'),
    (error: Error) => error,
  );
}

async function drain(events: AsyncIterable<PeerEvent>): Promise<void> {
  for await (const event of events) void event;
}

// The peer's connection closes soon after the client gave up: nothing more is read of it.
async function expectClosedSoonAfter(mode: string, failedAt: number): Promise<void> {
  const closedAt = await peer.pourings.get(mode)?.closed;
  expect(closedAt).toBeDefined();
  expect(Math.abs((closedAt ?? 0) - failedAt)).toBeLessThan(2_000);
}

describe('a peer reply larger than the bound', () => {
  const clients = new A2aClientFactory();
  beforeAll(() => peer.start());
  afterAll(() => peer.stop());

  it('is refused at once by its Content-Length, unread', async () => {
    const started = Date.now();
    const error = await failure(clients.peer(peer.url('declared')).sendText('ctx', 'go', { deadlineMs: 10_000 }));
    const failedAt = Date.now();

    expect(error).toMatchObject({
      code: 'PEER_TOO_LARGE',
      message: `the peer's reply at ${peer.url('declared')} passed 8.0 MiB (A2A_MAX_BODY_BYTES, ${DEFAULT_MAX_BODY_BYTES} bytes): its Content-Length declares 1.5 GiB (${HUGE} bytes); the rest was not read`,
    });
    expect(failedAt - started).toBeLessThan(5_000);
    await expectClosedSoonAfter('declared', failedAt);
  });

  it('fails as soon as a chunked one passes it, and closes the socket', async () => {
    const error = await failure(clients.peer(peer.url('endless')).sendText('ctx', 'go', { deadlineMs: 10_000 }));
    const failedAt = Date.now();

    expect(error.code).toBe('PEER_TOO_LARGE');
    expect(error.message).toMatch(
      new RegExp(
        `^the peer's reply at ${peer.url('endless')} passed 8.0 MiB \\(A2A_MAX_BODY_BYTES, ${DEFAULT_MAX_BODY_BYTES} bytes\\): \\d+ bytes had arrived and more were coming`,
      ),
    );
    await expectClosedSoonAfter('endless', failedAt);
    expect(peer.pourings.get('endless')?.bytes).toBeLessThan(DEFAULT_MAX_BODY_BYTES + SOCKET_SLACK);
  });

  it('is bounded as a whole when it calls itself an event stream but the call did not ask for one', async () => {
    const error = await failure(clients.peer(peer.url('unasked')).sendText('ctx', 'go', { deadlineMs: 10_000 }));

    expect(error).toMatchObject({ code: 'PEER_TOO_LARGE', message: expect.stringContaining('bytes had arrived and more were coming') });
    await expectClosedSoonAfter('unasked', Date.now());
  });

  it('is bounded by the client option when one is given', async () => {
    const response = await createHttpFetch({ maxBodyBytes: MiB })(peer.url('endless'), { method: 'POST', body: '{"id":1}' });
    const error = await failure(response.text());

    expect(error).toMatchObject({ code: 'PEER_TOO_LARGE', message: expect.stringContaining(`passed 1.0 MiB (A2A_MAX_BODY_BYTES, ${MiB} bytes)`) });
  });

  it('of 1.5 GB, chunked, leaves the client process less than 64 MiB larger', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'reply-memory.testing.ts'), peer.url('small'), peer.url('huge')], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.base.json') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let line = '';
    for await (const output of createInterface({ input: child.stdout })) line ||= output;
    const outcome = JSON.parse(line) as { code: string; message: string; growthBytes: number };

    expect(outcome.growthBytes).toBeLessThan(64 * MiB);
    expect(outcome).toMatchObject({ code: 'PEER_TOO_LARGE', message: expect.stringContaining('bytes had arrived and more were coming') });
    expect(peer.pourings.get('huge')?.bytes).toBeLessThan(DEFAULT_MAX_BODY_BYTES + SOCKET_SLACK);
  }, 180_000);

  it.each(['at-bound-chunked', 'at-bound-declared'])('of exactly the bound still works (%s)', async (mode) => {
    const text = await clients.peer(peer.url(mode)).sendText('ctx', 'go', { deadlineMs: 20_000 });

    expect(text).toBe('x'.repeat(DEFAULT_MAX_BODY_BYTES - 1024));
  });

  it.each(['endless-line', 'endless-event'])('fails an event stream whose one event has no end (%s) at the event bound', async (mode) => {
    const error = await failure(drain(clients.peer(peer.url(mode)).streamText('ctx', 'go', { deadlineMs: 10_000 })));
    const failedAt = Date.now();

    expect(error).toMatchObject({
      code: 'PEER_TOO_LARGE',
      message: `A2A peer ${peer.url(mode)}: an event of its stream passed 4.0 MiB (${4 * MiB} bytes, the bound on one event); the rest was not read`,
    });
    await expectClosedSoonAfter(mode, failedAt);
    expect(peer.pourings.get(mode)?.bytes).toBeLessThan(4 * MiB + SOCKET_SLACK);
  });
});
