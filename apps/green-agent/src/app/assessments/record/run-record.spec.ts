import { randomUUID } from 'node:crypto';
import { readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aClientFactory, parseAssessmentSaved, parseTaskProgressLines, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import type { AssessmentResult, TaskRecord } from '@arvo-rca/results';
import { parseRunRecord, readTaskFolder, RecordLayout, scanRecord, type AssessmentFile, type RunRecordPiece, type SourcesFile } from '@arvo-rca/run-record';
import { greenStage } from '../../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../../stage/solver-stand-in.testing';

// The answer to sample:1: the hunk of its fix, in the function the fix changes.
const SAMPLE_1_ANSWER = JSON.stringify({
  reasoning: 'the length bound of a record ignores its header',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'bound off by the header' }],
});

const SOLVING = callingBack([`cat > /workspace/shared/loc.json <<'EOF'\n${SAMPLE_1_ANSWER}\nEOF`]);

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

// What differs between two runs of the same tasks: times, and the masked id the solver knew each task by.
function withoutTimes(result: AssessmentResult): unknown {
  const tasks = Object.fromEntries(Object.entries(result.task_metrics).map(([key, entry]) => [key, { ...entry, wall_time_sec: 0, masked_id: null }]));
  return { ...result, time_used: 0, task_metrics: tasks };
}

describeWithDocker('green agent, the run record of an assessment', () => {
  const clients = new A2aClientFactory();
  const stage = greenStage('record');
  let greenUrl: string, solver: SolverStandIn;

  beforeAll(async () => {
    ({ greenUrl, solver } = await stage.start(SOLVING, { TASK_ATTEMPTS: '2' }));
  });

  beforeEach(() => {
    solver.runs = [];
  });

  async function send(config: Record<string, unknown>, purple = solver.agent.url): Promise<PeerEvent[]> {
    const events: PeerEvent[] = [];
    const request = JSON.stringify({ participants: { purple_agent: purple }, config });
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), request, { deadlineMs: 180_000 })) events.push(event);
    return events;
  }

  const resultOf = (events: PeerEvent[]): AssessmentResult =>
    (events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] }).data[0];
  // The record's files the green agent sent, in order, and where each came among the events.
  const piecesOf = (events: PeerEvent[]): { at: number; piece: RunRecordPiece }[] =>
    events.flatMap((event, at) => {
      const piece = event.kind === 'artifact' && event.name === 'Run record' ? parseRunRecord(event.data) : undefined;
      return piece && !('problem' in piece) ? [{ at, piece }] : [];
    });
  const recordOf = (events: PeerEvent[]): string => {
    const first = events.find((event) => event.kind === 'status' && parseAssessmentSaved(event.data));
    return parseAssessmentSaved((first as { data: unknown[] }).data)?.recordDir ?? '';
  };

  it('names its record on a status before any task ends, and writes every task with what the viewer shows of it', async () => {
    const events = await send({ task_ids: ['sample:1'] });

    const recordDir = recordOf(events);
    const firstFinish = events.findIndex((event) => event.kind === 'status' && parseTaskProgressLines(event.data).some((line) => line.kind === 'finished'));
    expect(events.findIndex((event) => event.kind === 'status' && parseAssessmentSaved(event.data))).toBeLessThan(firstFinish);
    const assessment = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    expect(assessment).toMatchObject({
      tasks: ['sample:1'],
      concurrency: 1,
      solver: { url: solver.agent.url, model: null },
      settings: { TASK_TIMEOUT_S: 120, SANDBOX: 'docker' },
    });
    expect(assessment.sessions).toEqual([{ started_at: expect.any(String), ended_at: expect.any(String), tasks: 1, retry_failed: false }]);
    const task = readJson<TaskRecord>(new RecordLayout(recordDir).taskFile('sample:1'));
    const result = resultOf(events);
    expect(task).toMatchObject({
      task: 'sample:1',
      task_id: 'sample:1',
      session: 0,
      run: { attempts: 1, commands: 1 },
      metrics: { status: 'scored', func_recall: 1 },
    });
    expect(result.task_metrics['sample:1']).toMatchObject({ ...task.metrics, n_attempts: 1 });
    expect(readJson(join(recordDir, 'result.json'))).toEqual(result);
    const runDir = join(recordDir, '..', '..');
    expect(readFileSync(join(runDir, task.files.crash_report ?? ''), 'utf8')).toBe(
      readFileSync(join(__dirname, '../../../../../../samples/1/error.txt'), 'utf8'),
    );
    expect(readFileSync(join(runDir, task.files.fix ?? ''), 'utf8')).toContain('-    if (length > avail)');
    expect(JSON.parse(readFileSync(join(runDir, task.files.submission ?? ''), 'utf8'))).toEqual(JSON.parse(SAMPLE_1_ANSWER));
    expect(task.files.log).toBe('sample_1.log');
    // The fix's line and the solver's first guess, marked on the same excerpt of the vulnerable source.
    const [excerpt] = readJson<SourcesFile>(join(runDir, task.files.sources ?? '')).files;
    expect(excerpt.path).toBe('src/index.c');
    expect(excerpt.predicted).toEqual([{ start: 60, end: 75, rank: 1 }]);
    const fixLines = excerpt.fix.flatMap((span) => excerpt.lines.slice(span.start - excerpt.start, span.end - excerpt.start + 1));
    expect(fixLines).toContain('    if (length > avail)');
  }, 180_000);

  it("sends its record's files as it writes them when asked: the header, each task before its end is reported, the header at the end; a resume the earlier tasks first", async () => {
    const events = await send({ task_ids: ['sample:1', 'sample:2'], send_record: true });

    const recordDir = recordOf(events);
    const scan = await scanRecord(recordDir);
    const pieces = piecesOf(events);
    expect(pieces.map(({ piece }) => piece.kind)).toEqual(['assessment', 'task', 'task', 'assessment']);
    expect(pieces.map(({ piece }) => piece.recordId)).toEqual(Array(4).fill(scan.assessment.id));
    expect(pieces.at(-1)?.piece).toMatchObject({ assessment: readJson(join(recordDir, 'assessment.json')) });
    for (const { at, piece } of pieces.filter(({ piece }) => piece.kind === 'task')) {
      if (piece.kind !== 'task') continue;
      const { record } = piece.task;
      expect(piece).toEqual({ recordId: scan.assessment.id, kind: 'task', task: await readTaskFolder(recordDir, record), leftOut: [] });
      expect(Object.keys(piece.task.files).sort()).toEqual(['crash.txt', 'fix.diff', 'loc.json', 'sources.json']);
      const finished = events.findIndex(
        (event) => event.kind === 'status' && parseTaskProgressLines(event.data).some((line) => line.kind === 'finished' && line.task === record.task),
      );
      expect(at).toBeLessThan(finished);
    }
    // The task store keeps the newest of them only: one task's files, not the run's.
    const taskId = events[0].kind === 'task' ? events[0].taskId : '';
    const stored = await fetch(greenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: taskId } }),
    });
    const { result } = (await stored.json()) as { result: { artifacts: { name: string }[] } };
    expect(result.artifacts.map((artifact) => artifact.name).sort()).toEqual(['Result', 'Run record']);

    solver.runs = [];
    const resumed = piecesOf(await send({ resume: scan.assessment.id, send_record: true }));
    expect(solver.runs).toEqual([]);
    expect(resumed.map(({ piece }) => (piece.kind === 'task' ? piece.task.record.task : piece.kind))).toEqual([
      'assessment',
      'sample:1',
      'sample:2',
      'assessment',
    ]);
    expect(piecesOf(await send({ resume: scan.assessment.id }))).toEqual([]);
  }, 300_000);

  it('resumes a record: only the tasks without a usable result run, a damaged one is named, and the Result is the whole run', async () => {
    const first = await send({ task_ids: ['sample:1', 'sample:3', 'sample:2'] });
    const recordDir = recordOf(first);
    unlinkSync(new RecordLayout(recordDir).taskFile('sample:3'));
    truncateSync(new RecordLayout(recordDir).taskFile('sample:2'), 30);
    solver.runs = [];

    const resumed = await send({ resume: recordDir.split('/').at(-1) });

    expect(solver.runs).toHaveLength(2);
    expect(recordOf(resumed)).toBe(recordDir);
    const notes = resumed.flatMap((event) => (event.kind === 'status' ? parseTaskProgressLines(event.data) : [])).filter((line) => line.kind === 'note');
    expect(notes).toContainEqual({
      task: 'sample:2',
      kind: 'note',
      text: expect.stringMatching(/^its record is damaged \(task\.json is not whole JSON .*\); it runs again$/),
    });
    expect(withoutTimes(resultOf(resumed))).toEqual(withoutTimes(resultOf(first)));
    const sessions = ['sample:1', 'sample:3', 'sample:2'].map((task) => readJson<TaskRecord>(new RecordLayout(recordDir).taskFile(task)).session);
    expect(sessions).toEqual([0, 1, 1]);
  }, 300_000);

  it('runs a task that fails around the solver again, counts the attempts, and reruns it on a resume only when asked', async () => {
    const unreachable = 'http://127.0.0.1:9/';
    const events = await send({ task_ids: ['sample:1'] }, unreachable);
    const recordDir = recordOf(events);

    expect(resultOf(events).task_metrics['sample:1']).toMatchObject({ status: 'failed', n_attempts: 2 });
    const notes = events.flatMap((event) => (event.kind === 'status' ? parseTaskProgressLines(event.data) : [])).filter((line) => line.kind === 'note');
    expect(notes).toContainEqual({ task: 'sample:1', kind: 'note', text: expect.stringMatching(/^attempt 1 of 2 failed \(.*\); running it again$/) });

    // The record names a solver whose card could not be read; here it is told the stand-in's, as if it had been reached.
    const assessment = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    const card = await clients.peer(solver.agent.url).card();
    writeFileSync(join(recordDir, 'assessment.json'), JSON.stringify({ ...assessment, solver: { ...card, url: unreachable } }));
    const plain = await send({ resume: assessment.id });
    expect(solver.runs).toEqual([]);
    expect(resultOf(plain).task_metrics['sample:1']).toMatchObject({ status: 'failed' });

    const retried = await send({ resume: assessment.id, retry_failed: true });
    expect(solver.runs).toHaveLength(1);
    // Two attempts in the first session, one in the resume.
    expect(resultOf(retried).task_metrics['sample:1']).toMatchObject({ status: 'scored', n_attempts: 3 });
  }, 300_000);

  it('refuses to resume under another solver model or other scoring settings, naming each difference, and runs nothing', async () => {
    const recordDir = recordOf(await send({ task_ids: ['sample:1'] }));
    const assessment = readJson<AssessmentFile>(join(recordDir, 'assessment.json'));
    unlinkSync(new RecordLayout(recordDir).taskFile('sample:1'));
    const changed = { ...assessment, solver: { ...assessment.solver, model: 'model-a' }, settings: { ...assessment.settings, TASK_TIMEOUT_S: 900 } };
    writeFileSync(join(recordDir, 'assessment.json'), JSON.stringify(changed));
    solver.runs = [];

    const events = await send({ resume: assessment.id });

    const text = rejectionOf(events);
    expect(text).toMatch(/^Resume refused, nothing was run: record \S+ was run otherwise: /);
    expect(text).toContain(`the solver's model: "model-a" recorded, none now`);
    expect(text).toContain('TASK_TIMEOUT_S: 900 recorded, 120 now');
    expect(solver.runs).toEqual([]);
    expect(rejectionOf(await send({ resume: 'no-such-record' }))).toContain('no run record no-such-record in');
  }, 180_000);
});
