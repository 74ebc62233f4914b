import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { parseSseBody, readJson, sendMessageBody, type LooseJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';
import { TaskEvents } from './task-events';

const PIECES = 64;
const FILLER = 'x'.repeat(1024 * 1024);

/** Sends PIECES artifacts of 1 MiB, each once the requester has taken the ones before but the last. */
@Injectable()
class PiecesExecutor implements AgentExecutor {
  published = 0;
  stopped?: 'all sent' | 'requester gone';
  private readonly waiters: (() => void)[] = [];

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const events = new TaskEvents(request, bus);
    events.start('sending');
    for (let piece = 0; piece < PIECES; piece += 1) {
      if (!(await events.caughtUp())) return this.stop('requester gone');
      events.artifact('piece', { piece, filler: FILLER }, 'pieces');
      this.published += 1;
    }
    this.stop('all sent');
    events.end(TaskState.TASK_STATE_COMPLETED, 'sent');
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }

  async untilStopped(): Promise<void> {
    while (this.stopped === undefined) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private stop(why: 'all sent' | 'requester gone'): void {
    this.stopped = why;
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

/** A `message/stream` call read with node:http, which can stop reading and go away. */
async function streamCall(url: string): Promise<{ request: ClientRequest; response: IncomingMessage }> {
  const body = JSON.stringify({ ...sendMessageBody('send'), method: 'message/stream' });
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => resolve({ request, response }));
    request.on('error', reject);
    request.end(body);
  });
}

/** The pieces' numbers and the states in an SSE body. */
function readBody(body: string): { pieces: unknown[]; states: unknown[] } {
  const events = parseSseBody(body).events.map((event) => (event as LooseJson)['result']);
  return {
    pieces: events.flatMap((event) => (String(event['kind']) === 'artifact-update' ? [event['artifact']['parts'][0]['data']['piece']] : [])),
    states: events.flatMap((event) => (String(event['kind']) === 'status-update' ? [event['status']['state']] : [])),
  };
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('the pace of a stream: a producer that awaits caughtUp() sends as fast as its requester reads', () => {
  let agent: TestAgent;
  let executor: PiecesExecutor;

  beforeEach(async () => {
    agent = await startTestAgent({ executor: PiecesExecutor });
    executor = agent.app.get(PiecesExecutor);
  });
  afterEach(() => agent.close());

  it('holds the producer while the requester reads nothing, and lets it send the rest, in order, once it reads again', async () => {
    const { response } = await streamCall(agent.url);
    const chunks: string[] = [];
    response.setEncoding('utf8');
    const ended = new Promise((resolve) => response.on('end', resolve));
    const firstPiece = new Promise<void>((resolve) => {
      response.on('data', (chunk: string) => {
        // The mark may straddle two chunks.
        if (`${chunks.at(-1)?.slice(-32) ?? ''}${chunk}`.includes('"artifact-update"')) resolve();
        chunks.push(chunk);
      });
    });
    await firstPiece;
    response.pause();
    await pause(500);
    const held = executor.published;
    await pause(500);

    // What the sockets' buffers hold (9 pieces here), and no more: the producer waits.
    expect(executor.published).toBe(held);
    expect(held).toBeLessThan(PIECES / 2);
    response.resume();
    await ended;
    const { pieces, states } = readBody(chunks.join(''));
    expect(pieces).toEqual(Array.from({ length: PIECES }, (_, piece) => piece));
    expect([states.at(-1), executor.stopped]).toEqual(['completed', 'all sent']);
  });

  it('lets the producer go at once when the requester goes away mid-stream', async () => {
    const { request, response } = await streamCall(agent.url);
    await new Promise((resolve) => response.once('data', resolve));
    response.pause();
    await pause(300);

    request.destroy();
    await executor.untilStopped();

    expect(executor.stopped).toBe('requester gone');
    expect(executor.published).toBeLessThan(PIECES / 2);
  });

  it('does not hold a producer whose requester does not stream: its events go to the task store', async () => {
    const answer = await fetch(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sendMessageBody('send')) });
    const { result } = await readJson(answer);

    expect([executor.stopped, executor.published]).toEqual(['all sent', PIECES]);
    expect(result.status.state).toBe('completed');
    expect(result.artifacts[0].parts[0].data.piece).toBe(PIECES - 1);
  });
});
