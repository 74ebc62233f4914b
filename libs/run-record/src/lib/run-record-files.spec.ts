import { TASK_FORMAT, type TaskRecord } from '@arvo-rca/results';
import { failedMetrics } from '@arvo-rca/results/testing';
import { ASSESSMENT_FORMAT, type AssessmentFile } from './record-format';
import type { TaskFolder } from './task-folder-files';
import { declaresRunRecord, formatRunRecord, parseRunRecord, runRecordExtension, taskPiece } from './run-record-files';

// A task that failed around the solver, as the judge records it (rca-eval's failedTask): zero scores, the reason.
const FAILED = failedMetrics('no image');

const ID = '2026-11-23_22-59-01_ab12cd34';

const header: AssessmentFile = {
  format: ASSESSMENT_FORMAT,
  id: ID,
  started_at: '2026-11-23T22:59:01.000Z',
  tasks: ['sample:1'],
  concurrency: 1,
  shard: { index: 0, count: 1 },
  assessor: { name: 'green', version: '1' },
  solver: { name: 'purple', version: '1', model: null, url: 'http://127.0.0.1:9019/' },
  settings: { SANDBOX: 'docker' },
  settings_hash: 'abc',
  sessions: [{ started_at: '2026-11-23T22:59:01.000Z', ended_at: null, tasks: 1, retry_failed: false }],
};

const record: TaskRecord = {
  format: TASK_FORMAT,
  task: 'sample:1',
  task_id: 'sample:1',
  masked_id: null,
  context_id: 'c1',
  finish_reason: 'finished',
  metrics: FAILED,
  run: { seconds: 1, commands: 0, failed_commands: 0, attempts: 1 },
  session: 0,
  finished_at: '2026-11-23T23:00:00.000Z',
  files: {
    crash_report: `assessments/${ID}/tasks/sample_1/crash.txt`,
    fix: `assessments/${ID}/tasks/sample_1/fix.diff`,
    submission: null,
    sources: null,
    trajectory: `assessments/${ID}/tasks/sample_1/trajectory.json`,
    log: 'sample_1.log',
  },
};

const task: TaskFolder = { record, files: { 'crash.txt': 'ERROR: AddressSanitizer\n', 'fix.diff': '-a\n+b\n', 'trajectory.json': '{"messages": []}\n' } };

// As the runner's client hands it over: the data part, through JSON.
const overTheWire = (value: unknown): unknown[] => [JSON.parse(JSON.stringify(value))];

describe("a run record's files, sent by the green agent to a runner that keeps the record", () => {
  it("carries the header and a task's folder as typed data that read back as they were sent", () => {
    expect(parseRunRecord(overTheWire(formatRunRecord({ recordId: ID, kind: 'assessment', assessment: header })))).toEqual({
      recordId: ID,
      kind: 'assessment',
      assessment: header,
    });
    expect(parseRunRecord(overTheWire(formatRunRecord(taskPiece(ID, task))))).toEqual({ recordId: ID, kind: 'task', task, leftOut: [] });
  });

  it('sends each file whole while the sum stays within the bound, and names each file it leaves out with its length', () => {
    const bigFix = { ...task, files: { ...task.files, 'fix.diff': '-a\n+b\n'.repeat(100) } };
    const bound = 'ERROR: AddressSanitizer\n'.length + '{"messages": []}\n'.length;

    const piece = taskPiece(ID, bigFix, bound);

    expect(piece).toEqual({
      recordId: ID,
      kind: 'task',
      task: { record, files: { 'crash.txt': 'ERROR: AddressSanitizer\n', 'trajectory.json': '{"messages": []}\n' } },
      leftOut: [{ name: 'fix.diff', chars: 600 }],
    });
    expect(parseRunRecord(overTheWire(formatRunRecord(piece)))).toEqual(piece);
  });

  it('sends a copy of the header, which the writer goes on changing as the session ends', () => {
    const live = structuredClone(header);
    const data = formatRunRecord({ recordId: ID, kind: 'assessment', assessment: live });
    live.sessions[0] = { ...live.sessions[0], ended_at: '2026-11-23T23:01:00.000Z' };

    expect(parseRunRecord([data])).toMatchObject({ assessment: { sessions: [{ ended_at: null }] } });
  });

  it('names what makes a piece unfit to keep: an id that is a path, a damaged header or task, a file of no known name', () => {
    const piece = (value: object): unknown[] => [{ run_record: { record_id: ID, kind: 'task', record, files: {}, ...value } }];

    expect(parseRunRecord([{ run_record: { record_id: '../x', kind: 'assessment', assessment: header } }])).toEqual({
      problem: 'record_id "../x" is not the id of a run record',
    });
    expect(parseRunRecord([{ run_record: { record_id: ID, kind: 'assessment', assessment: { ...header, id: 'other' } } }])).toEqual({
      problem: `record ${ID}: assessment.json is that of record "other"`,
    });
    expect(parseRunRecord([{ run_record: { record_id: ID, kind: 'assessment', assessment: { ...header, sessions: 1 } } }])).toEqual({
      problem: `record ${ID}: assessment.json is damaged: it has no sessions`,
    });
    expect(parseRunRecord(piece({ record: { ...record, metrics: {} } }))).toEqual({
      problem: `record ${ID}: the task.json of sample:1 has no metrics with a known status`,
    });
    expect(parseRunRecord(piece({ files: { '../../.bashrc': 'x' } }))).toEqual({
      problem: `record ${ID}: the files of sample:1 are not texts named crash.txt, fix.diff, loc.json, sources.json, trajectory.json`,
    });
    expect(parseRunRecord(piece({ left_out: [{ name: 'result.json', chars: 1 }] }))).toEqual({
      problem: `record ${ID}: left_out of sample:1 does not name files and their lengths`,
    });
    expect(parseRunRecord([{ record_dir: '/logs/x' }])).toBeUndefined();
  });

  it("is declared in the green agent's card, so that a runner asks only an agent that sends it", () => {
    // A card as A2A writes it: the extensions it declares under its capabilities (peer-card.spec shows buildAgentCard keeps them).
    const card = (extensions: ReturnType<typeof runRecordExtension>[]) => ({ name: 'g', version: '1', capabilities: { streaming: true, extensions } });

    expect(declaresRunRecord(JSON.parse(JSON.stringify(card([runRecordExtension()]))))).toBe(true);
    expect(declaresRunRecord(JSON.parse(JSON.stringify(card([]))))).toBe(false);
    expect(declaresRunRecord(undefined)).toBe(false);
  });
});
