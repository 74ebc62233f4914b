import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { failedTask, scoreSubmission, type GroundTruth } from '@arvo-rca/rca-eval';
import type { PairedComparison, TaskMetrics } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { compareRecords, RecordWriter, scanRecord, type ScoringSettings } from '@arvo-rca/run-record';
import { newAssessment, NO_EVIDENCE, scratchRunDir } from '@arvo-rca/run-record/testing';

const ROOT = join(__dirname, '..', '..');
const TRUTH: GroundTruth = {
  spans: [{ file: 'src/index.c', function: 'index_span', vulSpan: { start: 64, end: 70 }, fixSpan: { start: 64, end: 71 }, change: 'modified' }],
  project: 'tlvkit',
  notes: [],
};
// Answers the judge scores: the fix's lines and function; half of its lines; the right file only; another file.
const ANSWERS = {
  exact: '[{"file": "src/index.c", "function": "index_span", "line_start": 64, "line_end": 70}]',
  half: '[{"file": "src/index.c", "function": "index_span", "line_start": 67, "line_end": 76}]',
  file: '[{"file": "src/index.c", "function": "main", "line_start": 200, "line_end": 210}]',
  wrong: '[{"file": "src/other.c", "function": "parse", "line_start": 1, "line_end": 9}]',
};
const SETTINGS: ScoringSettings = { judge: '0.1.0', SANDBOX: 'docker', TASK_TIMEOUT_S: 600 };

type Answer = keyof typeof ANSWERS | 'failed';

async function writeRun(runDir: string, model: string, answers: Answer[], settings = SETTINGS): Promise<RecordWriter> {
  const tasks = answers.map((_, index) => `sample:${index + 1}`);
  const writer = await RecordWriter.create(runDir, newAssessment(tasks, { settings, settings_hash: 'hash', model }));
  for (const [index, answer] of answers.entries()) {
    const metrics: TaskMetrics = answer === 'failed' ? failedTask('pulling the image failed', TRUTH) : scoreSubmission(ANSWERS[answer], TRUTH);
    const task = tasks[index];
    await writer.writeTask(taskDraft(task, metrics, { context_id: `ctx-${index}` }), NO_EVIDENCE);
  }
  return writer;
}

/** `npm run compare -- ...` as a person runs it: the command through tsx, from the repository's root. */
function compare(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stdout: string; stderr: string } {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const run = spawnSync(process.execPath, [tsx, '--tsconfig', 'tools/tsconfig.json', 'tools/compare/compare.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOG_DIR: '', ...env },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('npm run compare', () => {
  const { logDir, runDir } = scratchRunDir('compare-', 'all');
  let baseline: RecordWriter;
  let model: RecordWriter;

  beforeAll(async () => {
    baseline = await writeRun(runDir(), 'baseline', ['wrong', 'file', 'wrong', 'half', 'failed', 'wrong', 'file', 'exact', 'wrong', 'wrong']);
    model = await writeRun(runDir(), 'openai/gpt-4.1', ['exact', 'exact', 'half', 'half', 'exact', 'wrong', 'exact', 'exact', 'file', 'exact']);
  });

  it('prints each metric: the means, B - A with its paired-bootstrap interval, and McNemar on the top-k hits', async () => {
    const expected = compareRecords(await scanRecord(baseline.folder), await scanRecord(model.folder));
    const { status, stdout } = compare([baseline.folder, model.folder]);

    expect(status).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`A  ${baseline.id}: arvo-rca purple agent 0.1.0, model baseline; 10 of 10 tasks recorded (${baseline.folder})`);
    expect(stdout).toContain('10 task(s) graded in both runs (10 with root-cause spans); only in A: none; only in B: none');
    expect(stdout).toContain('95% paired-bootstrap interval (2,000 resamples of the tasks, seed 2026, mulberry32)');
    const row = (metric: string): string[] => (lines.find((line) => line.startsWith(`${metric} `)) ?? '').trim().split(/\s{2,}/);
    const iou = expected.metrics.find((metric) => metric.metric === 'line_iou');
    expect(row('line_iou')).toEqual([
      'line_iou',
      iou?.a_mean.toFixed(3),
      iou?.b_mean.toFixed(3),
      `+${iou?.difference.toFixed(3)}`,
      `[+${iou?.interval?.[0].toFixed(3)}, +${iou?.interval?.[1].toFixed(3)}]`,
    ]);
    // func@1: the model finds the function on six tasks the baseline missed, and misses none it found.
    const func1 = expected.metrics.find((metric) => metric.metric === 'func_topk_recall[1]');
    expect(func1?.mcnemar).toMatchObject({ a_only: 0, b_only: 6 });
    expect(func1?.mcnemar?.p_value).toBeCloseTo(2 / 64, 12);
    expect(row('func_topk_recall[1]').slice(-3)).toEqual(['0', '6', '0.0313']);
  });

  it('lists the tasks that score differently, with each change', () => {
    const { stdout } = compare([baseline.folder, model.folder]);

    expect(stdout).toContain('Tasks that score differently (7 of 10):');
    expect(stdout).toMatch(/^ {2}sample:1 {2}file_acc 0 → 1, func_recall 0 → 1, func_precision 0 → 1, line_iou 0 → 1, line_proximity 0 → 1 \(and 17 more\)$/m);
    // Another file, then the right function and half of the fix's lines: 5/13 of them overlap.
    expect(stdout).toMatch(
      /^ {2}sample:3 {2}file_acc 0 → 1, func_recall 0 → 1, func_precision 0 → 1, line_iou 0 → 0\.38, line_proximity 0 → 0\.\d\d \(and \d+ more\)$/m,
    );
    // The same answers in both runs: half the fix's lines on task 4, another file on 6, the fix on 8.
    for (const same of ['sample:4', 'sample:6', 'sample:8']) expect(stdout).not.toMatch(new RegExp(`^ {2}${same} `, 'm'));
  });

  it('finds records by id in the log directory, and gives the comparison as JSON when asked', async () => {
    const { status, stdout } = compare([baseline.id, model.id, '--json'], { LOG_DIR: logDir() });

    expect(status).toBe(0);
    const comparison = JSON.parse(stdout) as PairedComparison;
    expect(comparison).toEqual(compareRecords(await scanRecord(baseline.folder), await scanRecord(model.folder)));
  });

  it('refuses two runs scored under different settings, naming the difference', async () => {
    const longer = await writeRun(runDir(), 'openai/gpt-4.1', ['exact'], { ...SETTINGS, TASK_TIMEOUT_S: 1800 });
    const { status, stderr, stdout } = compare([baseline.id, longer.id, '--logs', runDir()]);

    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      'compare: the two runs were scored under different settings, so their scores are not comparable: TASK_TIMEOUT_S: 600 in A, 1800 in B\n',
    );
  });

  it('says what is wrong with a record it cannot find, and how to call it', () => {
    const unknown = compare([baseline.folder, '2026-01-01_00-00-00_deadbeef'], { LOG_DIR: logDir() });
    const one = compare([baseline.folder]);

    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(`compare: 2026-01-01_00-00-00_deadbeef is neither a run record's folder nor the id of a record in ${logDir()}\n`);
    expect(one.status).toBe(2);
    expect(one.stderr).toMatch(/^compare: name two run records to compare, not 1\nusage: npm run compare -- RECORD_A RECORD_B/);
  });
});
