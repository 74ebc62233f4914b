import { A2aPeerError, formatAssessmentSaved, formatTaskProgressData, type PeerEvent, type PeerTaskState, type TaskProgressLine } from '@arvo-rca/a2a-protocol';
import { failedTask } from '@arvo-rca/rca-eval';
import { aggregateResults } from '@arvo-rca/results';
import { AssessmentFailed, followAssessment, GreenFailure } from './assessment-stream';

const GREEN = 'http://127.0.0.1:9009/';
const RECORD = 'logs/log_1/assessments/2026-11-23_20-00-00_ab12cd34';
const RESULT = aggregateResults([{ task_id: 'sample:1', metrics: failedTask('no image') }], 1);

const status = (text: string, data: unknown[] = [], state: PeerTaskState = 'working'): PeerEvent => ({
  kind: 'status',
  taskId: 't',
  contextId: 'c',
  state,
  text,
  data,
});
const progress = (line: TaskProgressLine): PeerEvent => status('', [formatTaskProgressData(line)]);

/** What a green agent streams, as the peer client yields it: `events`, then `end` (a clean end, or a broken stream). */
async function* green(events: PeerEvent[], end?: Error): AsyncGenerator<PeerEvent> {
  for (const event of events) yield event;
  if (end) throw end;
}

/** Follows the stream; what the watch heard, and how it ended. */
async function follow(events: PeerEvent[], end?: Error) {
  const heard: string[] = [];
  const outcome = await followAssessment(GREEN, green(events, end), {
    recorded: (dir) => heard.push(`record ${dir}`),
    progress: (line) => heard.push(`${line.kind} ${line.task}`),
    // Keeping takes a while (files written): the next event waits for it.
    kept: async (data) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      heard.push(`kept ${JSON.stringify(data)}`);
    },
  }).catch((error: unknown) => error);
  return { heard, outcome };
}

describe("following a green agent's assessment", () => {
  const begun = [status('assessing 1 task', [formatAssessmentSaved({ recordDir: RECORD })]), progress({ task: 'sample:1', kind: 'started' })];

  it("names the record once, as soon as a status says where it is, and returns the Result with its file and the record's folder", async () => {
    const { heard, outcome } = await follow([
      ...begun,
      progress({ task: 'sample:1', kind: 'finished', status: 'failed', detail: 'no image' }),
      { kind: 'artifact', taskId: 't', contextId: 'c', name: 'Result', text: '', data: [RESULT] },
      status('done', [formatAssessmentSaved({ recordDir: RECORD, resultsFile: `${RECORD}/result.json` })], 'completed'),
    ]);

    expect(heard).toEqual([`record ${RECORD}`, 'started sample:1', 'finished sample:1']);
    expect(outcome).toEqual({ green: GREEN, result: RESULT, file: `${RECORD}/result.json`, recordDir: RECORD });
  });

  it('keeps each Run record artifact before it reads the next event, so that a task is kept before its end is shown', async () => {
    const piece = { run_record: { record_id: 'r1', kind: 'task' } };

    const { heard } = await follow([
      ...begun,
      { kind: 'artifact', taskId: 't', contextId: 'c', name: 'Run record', text: '', data: [piece] },
      progress({ task: 'sample:1', kind: 'finished', status: 'failed', detail: 'no image' }),
      { kind: 'artifact', taskId: 't', contextId: 'c', name: 'Result', text: '', data: [RESULT] },
      status('done', [], 'completed'),
    ]);

    expect(heard).toEqual([`record ${RECORD}`, 'started sample:1', `kept ${JSON.stringify([piece])}`, 'finished sample:1']);
  });

  it('fails with the record when the green agent dies mid-run, so that the run can be resumed', async () => {
    const { outcome } = await follow(begun, new A2aPeerError('PEER_DISCONNECTED', 'the connection to the peer broke (ECONNRESET)'));

    expect(outcome).toBeInstanceOf(GreenFailure);
    expect(outcome).toMatchObject({
      code: 'GREEN_STOPPED',
      green: GREEN,
      recordDir: RECORD,
      message: `the green agent at ${GREEN} stopped answering mid-run: the connection to the peer broke (ECONNRESET)`,
    });
    expect(new AssessmentFailed([outcome as GreenFailure]).resumable).toEqual([{ green: GREEN, recordDir: RECORD }]);
  });

  it('fails with the record when the assessment ends without a Result, saying how it ended', async () => {
    const { outcome } = await follow([...begun, status('the engine went away', [], 'failed')]);

    expect(outcome).toMatchObject({
      code: 'NO_RESULT',
      recordDir: RECORD,
      message: `the green agent at ${GREEN} ended the assessment without a Result (failed: the engine went away)`,
    });
  });

  it('fails as refused when the green agent rejects the request, and offers no resume of a refused request', async () => {
    const { outcome } = await follow([
      { kind: 'task', taskId: 't', contextId: 'c', state: 'submitted', text: '', data: [] },
      status('Resume refused, nothing was run: the solver\'s model: "baseline" recorded, "openai/gpt-4.1" now', [], 'rejected'),
    ]);

    expect(outcome).toMatchObject({
      code: 'GREEN_REFUSED',
      message: `the green agent at ${GREEN} refused: Resume refused, nothing was run: the solver's model: "baseline" recorded, "openai/gpt-4.1" now`,
    });
    expect(new AssessmentFailed([outcome as GreenFailure]).resumable).toEqual([]);
  });

  it('fails as refused when an older green agent answers with a bare message', async () => {
    const { outcome } = await follow([{ kind: 'message', contextId: 'c', text: 'Invalid assessment request, nothing was started', data: [] }]);

    expect(outcome).toMatchObject({ code: 'GREEN_REFUSED', message: `the green agent at ${GREEN} refused: Invalid assessment request, nothing was started` });
  });

  it('says the green agent did not answer when the stream fails before any event', async () => {
    const { outcome } = await follow([], new A2aPeerError('PEER_UNREACHABLE', 'cannot reach http://127.0.0.1:9009/ (ECONNREFUSED)'));

    expect(outcome).toMatchObject({
      code: 'GREEN_STOPPED',
      message: `the green agent at ${GREEN} did not answer: cannot reach http://127.0.0.1:9009/ (ECONNREFUSED)`,
    });
    expect((outcome as GreenFailure).recordDir).toBeUndefined();
  });
});
