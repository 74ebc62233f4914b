import { mkdtemp, rm, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedTask, interruptedTask, scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import type { TaskDraw, TaskMetrics, TaskRecordDraft } from '@arvo-rca/results';
import { RecordError, RecordLayout, RecordWriter } from '@arvo-rca/run-record';
import { describeResumePlan, planResume, resumeCommand, resumeRequest } from './resume-plan';

const TRUTH: GroundTruth = {
  spans: [{ file: 'src/a.c', function: 'parse', vulSpan: { start: 10, end: 12 }, fixSpan: { start: 10, end: 13 }, change: 'modified' }],
  project: null,
  notes: [],
};
const SCORED = scoreSubmission('{"locations": [{"file": "src/a.c", "function": "parse", "line_start": 10, "line_end": 12}]}', TRUTH);
const NO_EVIDENCE = { crashReport: null, fix: null, submission: null, sources: null, trajectory: null, log: null };

function finished(task: string, metrics: TaskMetrics): TaskRecordDraft {
  return {
    task,
    task_id: task,
    masked_id: null,
    context_id: `ctx-${task}`,
    finish_reason: 'finished',
    metrics,
    run: { seconds: 1, commands: 2, failed_commands: 0, attempts: 1 },
  };
}

/** A record of `tasks`, as a green agent leaves it when it is killed after writing `written`. */
async function record(runDir: string, tasks: string[], written: TaskRecordDraft[], draw?: TaskDraw): Promise<RecordWriter> {
  const writer = await RecordWriter.create(
    runDir,
    {
      tasks,
      ...(draw ? { draw } : {}),
      concurrency: 2,
      shard: { index: 0, count: 1 },
      assessor: { name: 'arvo-rca green agent', version: '1.0.0' },
      solver: { name: 'arvo-rca purple agent', version: '1.0.0', model: 'baseline', url: 'http://127.0.0.1:9019/' },
      settings: { TASK_TIMEOUT_S: 3600 },
      settings_hash: 'abc',
    },
    new Date('2026-11-23T20:00:00Z'),
  );
  for (const task of written) await writer.writeTask(task, NO_EVIDENCE);
  return writer;
}

describe('resuming a run record', () => {
  let runDir: string;

  beforeEach(async () => {
    runDir = await mkdtemp(join(tmpdir(), 'assess-resume-'));
  });

  afterEach(async () => {
    await rm(runDir, { recursive: true, force: true });
  });

  it('names the tasks done, each damaged task with its reason, and the tasks to run', async () => {
    const writer = await record(runDir, ['sample:1', 'sample:2', 'sample:3', 'sample:4'], [finished('sample:1', SCORED), finished('sample:2', SCORED)]);
    await truncate(new RecordLayout(writer.folder).taskFile('sample:2'), 30);

    const plan = await planResume(writer.folder, false, false);

    expect(plan).toMatchObject({ folder: writer.folder, recordId: writer.id, retryFailed: false, local: { toRun: ['sample:2', 'sample:3', 'sample:4'] } });
    expect(plan.local?.scan.runDir).toBe(runDir);
    expect(describeResumePlan(plan)).toEqual([
      `record:  ${writer.folder} (4 task(s), started 2026-11-23T20:00:00.000Z, 1 session(s), solver arvo-rca purple agent 1.0.0, model baseline)`,
      'done:    1 of 4 (sample:1)',
      expect.stringMatching(/^damaged: sample:2: task\.json is not whole JSON \(.*\); it runs again$/),
      'to run:  3 (sample:2, sample:3, sample:4)',
    ]);
  });

  it('keeps failed and interrupted tasks, saying that --retry-failed runs them, and runs them with it', async () => {
    const tasks = ['sample:1', 'sample:2', 'sample:3'];
    const writer = await record(runDir, tasks, [
      finished('sample:1', failedTask('pulling arvo-rca-sample:9-vul failed')),
      finished('sample:2', interruptedTask('the green agent is shutting down')),
      finished('sample:3', SCORED),
    ]);

    const kept = await planResume(writer.folder, false, false);
    const retried = await planResume(writer.folder, true, false);

    expect(describeResumePlan(kept).slice(1)).toEqual([
      'done:    3 of 3 (sample:1, sample:2, sample:3)',
      'kept:    sample:1 failed (pulling arvo-rca-sample:9-vul failed); --retry-failed runs it again',
      'kept:    sample:2 interrupted (the green agent is shutting down); --retry-failed runs it again',
      'to run:  0',
    ]);
    expect(retried.local?.toRun).toEqual(['sample:1', 'sample:2']);
    expect(describeResumePlan(retried).slice(1)).toEqual(['done:    3 of 3 (sample:1, sample:2, sample:3)', 'to run:  2 (sample:1, sample:2)']);
  });

  it('says how the record drew its tasks, and runs those, drawing nothing', async () => {
    const draw: TaskDraw = { list: 'rcabench-clean-181', list_size: 181, seed: 7, task_ids: ['arvo:17715', 'arvo:34096'] };
    const writer = await record(runDir, draw.task_ids, [finished('arvo:17715', SCORED)], draw);

    const plan = await planResume(writer.folder, false, false);

    expect(describeResumePlan(plan).slice(1)).toEqual([
      'drawn:   2 of rcabench-clean-181 (181 tasks) with seed 7; a resume draws nothing',
      'done:    1 of 2 (arvo:17715)',
      'to run:  1 (arvo:34096)',
    ]);
  });

  it('lists a few task names and counts the rest', async () => {
    const tasks = Array.from({ length: 20 }, (_, index) => `arvo:${index + 1}`);
    const writer = await record(runDir, tasks, []);

    expect(describeResumePlan(await planResume(writer.folder, false, false)).at(-1)).toBe(
      'to run:  20 (arvo:1, arvo:2, arvo:3, arvo:4, arvo:5, arvo:6, arvo:7, arvo:8, ... (12 more))',
    );
  });

  it('refuses a folder that is no record, and names the records of a run directory given instead', async () => {
    await expect(planResume(join(runDir, 'nothing'), false, false)).rejects.toThrow(
      new RecordError('RECORD_MISSING', `${join(runDir, 'nothing')} is not a run record: it has no assessment.json`),
    );
    const writer = await record(runDir, ['sample:1'], []);

    await expect(planResume(runDir, false, false)).rejects.toThrow(
      `${runDir} is not a run record: it has no assessment.json; it is a run directory, and its records are ${writer.folder}`,
    );
  });

  it('leaves a record that is not on this machine to a green agent that already runs, by its id', async () => {
    const plan = await planResume('/elsewhere/logs/log_1/assessments/2026-11-23_20-00-00_ab12cd34/', true, true);

    expect(plan).toEqual({
      folder: '/elsewhere/logs/log_1/assessments/2026-11-23_20-00-00_ab12cd34/',
      recordId: '2026-11-23_20-00-00_ab12cd34',
      retryFailed: true,
    });
    expect(describeResumePlan(plan)).toEqual([
      'record:  2026-11-23_20-00-00_ab12cd34 is not on this machine; the green agent looks it up in its run directories',
    ]);
  });

  it('asks the green agent for the record by id, with a concurrency only when one is given', async () => {
    const plan = { folder: 'logs/r/assessments/r1', recordId: 'r1', retryFailed: true };

    expect(resumeRequest('http://p:9019/', plan)).toEqual({ participants: { purple_agent: 'http://p:9019/' }, config: { resume: 'r1', retry_failed: true } });
    expect(resumeRequest('http://p:9019/', plan, 3).config).toEqual({ resume: 'r1', retry_failed: true, concurrency: 3 });
    expect(resumeRequest('http://p:9019/', plan, undefined, true).config).toEqual({ resume: 'r1', retry_failed: true, send_record: true });
  });

  it('tells how to go on, naming a green agent that was already running, quoting what the shell would split', () => {
    expect(resumeCommand('logs/log_1/assessments/r1')).toBe('npm run assess -- --resume logs/log_1/assessments/r1');
    expect(resumeCommand('/runs/my run/assessments/r1', 'http://a:9009/')).toBe(
      "npm run assess -- --resume '/runs/my run/assessments/r1' --green http://a:9009/",
    );
  });
});
