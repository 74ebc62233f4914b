import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aClientFactory, parseAssessmentSaved } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { parseRunRecord, scanRecord, type AssessmentFile } from '@arvo-rca/run-record';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { writeLargeRecord } from './support/records/large-record';
import { SseRequester, type StreamEvent } from './support/a2a/sse-requester';

const MiB = 1024 * 1024;
const TASKS = 1000;
// A trajectory of a few dozen steps: the record comes to about 220 MB.
const TRAJECTORY_CHARS = 200 * 1024;
// Sending the record again as it was before its sending was paced, the green agent grew by 330 MiB for a
// requester that read promptly and by 720 MiB for one that stopped reading; paced, by 70 MiB for either.
const BOUNDED_MIB = 150;
const STALL_MS = 10_000;

/** The process's resident memory now and its peak since resetPeak, from the kernel's own counters. */
function memoryOf(agent: AgentProcess): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${agent.child.pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), peak: kib('VmHWM') };
}

/** Sets the process's peak back to its resident memory now; the growth since, in MiB. */
function growthFrom(agent: AgentProcess): () => number {
  const { rss } = memoryOf(agent);
  writeFileSync(`/proc/${agent.child.pid}/clear_refs`, '5');
  return () => (memoryOf(agent).peak - rss) / MiB;
}

const isTaskPiece = (event: StreamEvent): boolean => {
  const piece = event.artifact?.name === 'Run record' ? parseRunRecord(event.artifact.parts.map((part) => part.data)) : undefined;
  return piece !== undefined && 'kind' in piece && piece.kind === 'task';
};
const recordDirOf = (event: StreamEvent): string | undefined =>
  parseAssessmentSaved((event.status?.message?.parts ?? []).flatMap((part) => (part.kind === 'data' ? [part.data] : [])))?.recordDir;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A green agent resumes a record of 1,000 finished tasks (about 220 MB) for a requester that keeps the
 * record (`send_record`), and sends the tasks of the earlier sessions first: both agents real processes on
 * loopback, the requester a node:http client that reads at its own pace, each resume on a fresh green agent
 * whose peak memory the kernel counts.
 */
describe('a resume sends a 1,000-task record again to a requester that keeps it', () => {
  const scratch = new Scratch();
  const clients = new A2aClientFactory();
  const greens: AgentProcess[] = [];
  let purple: AgentProcess;
  let record: { id: string; folder: string; tasks: string[] };

  const env = (): NodeJS.ProcessEnv => ({ ...scratch.env(), SANDBOX: 'local', MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
  const assessment = (config: object): string => JSON.stringify({ participants: { purple_agent: purple.url }, config });

  async function startGreen(): Promise<AgentProcess> {
    const green = await startAgent('green-agent', { ...env(), PURPLE_AGENT_URL: purple.url });
    greens.push(green);
    return green;
  }

  /** The header of a record this green agent begins for this solver (its scoring settings, the solver's card): an assessment canceled at once. */
  async function headerOf(green: AgentProcess): Promise<AssessmentFile> {
    const request = await SseRequester.start(green.url, assessment({ task_ids: ['sample:1'] }));
    await request.until((event) => recordDirOf(event) !== undefined);
    await clients.peer(green.url).cancel(request.taskId);
    await request.ended;
    const recordDir = request.events.map(recordDirOf).find((dir) => dir !== undefined) ?? '';
    return JSON.parse(readFileSync(join(recordDir, 'assessment.json'), 'utf8')) as AssessmentFile;
  }

  /** A fresh green agent resending the record to a requester that took its first task and stopped reading; its memory growth from before the request. */
  async function stalledResend(): Promise<{ green: AgentProcess; growth: () => number; request: SseRequester }> {
    const green = await startGreen();
    const growth = growthFrom(green);
    const request = await SseRequester.start(green.url, assessment({ resume: record.id, send_record: true }));
    await request.until(isTaskPiece);
    request.pause();
    return { green, growth, request };
  }

  /** Whether the record's session `index` ends within `ms`. */
  async function sessionEnded(index: number, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if ((await scanRecord(record.folder)).assessment.sessions[index]?.ended_at) return true;
      await pause(200);
    }
    return false;
  }

  beforeAll(async () => {
    purple = await startAgent('purple-agent', env(), await freePort());
    const writer = await writeLargeRecord(scratch.runDir, await headerOf(await startGreen()), TASKS, TRAJECTORY_CHARS);
    record = { id: writer.id, folder: writer.folder, tasks: [...(await scanRecord(writer.folder)).done.keys()] };
  });

  afterAll(async () => {
    await Promise.all([...greens, purple].filter(Boolean).map((agent) => agent.stop()));
    scratch.remove();
  });

  it('sends every task in the order of the record, between the two headers and before the Result, to a requester that reads promptly', async () => {
    const green = await startGreen();
    const growth = growthFrom(green);

    const request = await SseRequester.start(green.url, assessment({ resume: record.id, send_record: true }));
    await request.ended;

    const pieces = request.events.flatMap((event) => {
      const piece = event.artifact?.name === 'Run record' ? parseRunRecord(event.artifact.parts.map((part) => part.data)) : undefined;
      return piece && 'kind' in piece ? [piece.kind === 'task' ? piece.task.record.task : piece.kind] : [];
    });
    expect(pieces).toEqual(['assessment', ...record.tasks, 'assessment']);
    expect(request.events.slice(-2).map((event) => event.artifact?.name ?? event.status?.state)).toEqual(['Result', 'completed']);
    expect(growth()).toBeLessThan(BOUNDED_MIB);
  });

  it('sends no faster than a requester that stops reading takes them, its memory bounded, and all of them once it reads again', async () => {
    const { growth, request } = await stalledResend();
    await pause(STALL_MS);
    const stalled = growth();
    request.resume();
    await request.ended;

    expect(stalled).toBeLessThan(BOUNDED_MIB);
    expect(growth()).toBeLessThan(BOUNDED_MIB);
    expect([request.events.filter(isTaskPiece).length, request.lastState]).toEqual([TASKS, 'completed']);
  });

  it('stops sending when the requester cancels mid-way: the canceled state comes after a few more tasks, not the rest of the record', async () => {
    const { green, request } = await stalledResend();
    await pause(1_000);

    await clients.peer(green.url).cancel(request.taskId);
    request.resume();
    await request.ended;

    expect(request.lastState).toBe('canceled');
    // What the sockets' buffers held when it stopped reading; the other 900 and more were never read from disk.
    expect(request.events.filter(isTaskPiece).length).toBeLessThan(100);
    expect([green.exited, green.log]).toEqual([false, expect.not.stringMatching(/unhandled/i)]);
  });

  it('stops sending when the requester goes away mid-way, and ends the session by itself', async () => {
    const { green, growth, request } = await stalledResend();
    await pause(1_000);
    const sessions = (await scanRecord(record.folder)).assessment.sessions;

    request.close();
    const ended = await sessionEnded(sessions.length - 1, 30_000);

    expect(ended).toBe(true);
    expect(growth()).toBeLessThan(BOUNDED_MIB);
    expect([green.exited, green.log]).toEqual([false, expect.not.stringMatching(/unhandled/i)]);
  });
});
