import { Injectable } from '@nestjs/common';
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { parseSseBody, sendMessageBody, type LooseJson } from '../testing/http.testing';
import { startTestAgent, type TestAgent } from '../testing/test-agent.testing';
import { TaskEvents } from './task-events';

const EVERY_MS = 200;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress lines in a burst, one after a quiet spell, one just before an artifact: as an assessment reports its tasks. */
@Injectable()
class BurstExecutor implements AgentExecutor {
  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const events = new TaskEvents(request, bus, { progressEveryMs: EVERY_MS });
    events.start('go');
    // The burst's update goes once its time is up, late on a busy machine: the quiet spell is counted from then.
    const burstSent = new Promise<void>((resolve) => bus.once('event', () => resolve()));
    for (const line of ['a', 'b', 'c']) events.progress(line, { line });
    await burstSent;
    await pause(EVERY_MS + 20);
    events.progress('d', { line: 'd' });
    events.progress('e');
    events.artifact('Result', { done: true });
    events.end(TaskState.TASK_STATE_COMPLETED, 'done');
  }

  async cancelTask(_taskId: string, bus: ExecutionEventBus): Promise<void> {
    bus.finished();
  }
}

/** Each event of an SSE answer: a status as its text and data parts, an artifact by its name. */
function eventsOf(body: string): (string | { text: string; data: unknown[] })[] {
  return parseSseBody(body).events.map((event) => {
    const result = (event as LooseJson)['result'];
    if (String(result['kind']) === 'artifact-update') return `artifact ${String(result['artifact']['name'])}`;
    if (String(result['kind']) !== 'status-update') return String(result['kind']);
    const parts = Object.values(result['status']['message']?.['parts'] ?? {}).map((part) => part as unknown as { kind: string; text?: string; data?: unknown });
    return {
      text: parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join(''),
      data: parts.flatMap((part) => (part.kind === 'data' ? [part.data] : [])),
    };
  });
}

describe('progress lines close together go out as one update', () => {
  let agent: TestAgent;

  beforeEach(async () => {
    agent = await startTestAgent({ executor: BurstExecutor });
  });
  afterEach(() => agent.close());

  it('sends the first line at once, a burst as one update (a text line and a data part each), and what is held before any other event', async () => {
    const response = await fetch(agent.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...sendMessageBody('go'), method: 'message/stream' }),
    });

    expect(eventsOf(await response.text())).toEqual([
      'task',
      { text: 'go', data: [] },
      { text: 'a\nb\nc', data: [{ line: 'a' }, { line: 'b' }, { line: 'c' }] },
      // After a quiet spell, at once; the next is held, and goes before the artifact that follows it.
      { text: 'd', data: [{ line: 'd' }] },
      { text: 'e', data: [] },
      'artifact Result',
      { text: 'done', data: [] },
    ]);
  });
});
