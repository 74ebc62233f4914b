import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { asRootCause, pairedComparison, topKOf, type LocalizationMetrics, type TaskMetrics } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { compareRecords } from './record-comparison';
import { RecordError } from './record-error';
import { recordFolders } from './record-folders';
import { scanRecord } from './record-scan';
import { RecordWriter, type NewAssessment } from './record-writer';
import { newAssessment, NO_EVIDENCE, scratchRunDir } from './testing/record.testing';

const SETTINGS = { judge: '0.1.0', SANDBOX: 'docker', TASK_TIMEOUT_S: 600 };

/** A task whose answer overlaps the fix by `iou`, found its function when `hit`. */
function scored(iou: number, hit: boolean): TaskMetrics {
  const found = hit ? 1 : 0;
  const metrics: LocalizationMetrics = {
    file_acc: iou > 0 ? 1 : 0,
    func_recall: found,
    func_precision: found / 3,
    line_iou: iou,
    line_proximity: iou,
    func_topk_recall: topKOf(found),
    line_topk_recall: topKOf(iou >= 0.5 ? 1 : 0),
  };
  return { status: 'scored', n_gt: 1, n_pred: 3, rc_n_gt: 1, ...metrics, ...asRootCause(metrics) };
}

async function record(runDir: string, settings: NewAssessment['settings'], model: string, tasks: [string, TaskMetrics][]): Promise<string> {
  const writer = await RecordWriter.create(runDir, newAssessment([...tasks.map(([task]) => task), 'sample:99'], { settings, settings_hash: 'hash', model }));
  for (const [task, metrics] of tasks) await writer.writeTask(taskDraft(task, metrics), NO_EVIDENCE);
  return writer.folder;
}

describe('comparing two run records', () => {
  const { logDir, runDir } = scratchRunDir('record-comparison-');

  it('compares the tasks both records hold, leaving out those one has not recorded yet', async () => {
    const tasks = Array.from({ length: 12 }, (_, id) => `sample:${id + 1}`);
    const a = await scanRecord(
      await record(
        runDir(),
        SETTINGS,
        'baseline',
        tasks.map((task, id) => [task, scored(id % 3 === 0 ? 0.5 : 0, id % 4 === 0)]),
      ),
    );
    const b = await scanRecord(
      await record(
        runDir(),
        SETTINGS,
        'openai/gpt-4.1',
        tasks.slice(1).map((task, id) => [task, scored(id % 2 === 0 ? 1 : 0.25, id % 2 === 0)]),
      ),
    );

    const comparison = compareRecords(a, b);

    expect(comparison).toEqual(
      pairedComparison(new Map([...a.done].map(([key, task]) => [key, task.metrics])), new Map([...b.done].map(([key, task]) => [key, task.metrics]))),
    );
    expect(comparison).toMatchObject({ n_paired: 11, only_in_a: ['sample:1'], only_in_b: [] });
    expect(comparison.metrics.find((metric) => metric.metric === 'line_iou')?.difference).toBeGreaterThan(0.3);
  });

  it('refuses two records scored under different settings, naming each difference', async () => {
    const a = await scanRecord(await record(runDir(), SETTINGS, 'baseline', [['sample:1', scored(1, true)]]));
    const b = await scanRecord(await record(runDir(), { ...SETTINGS, TASK_TIMEOUT_S: 900, judge: '0.2.0' }, 'baseline', [['sample:1', scored(1, true)]]));

    expect(() => compareRecords(a, b)).toThrow(
      new RecordError(
        'SETTINGS_DIFFER',
        'the two runs were scored under different settings, so their scores are not comparable: TASK_TIMEOUT_S: 600 in A, 900 in B; judge: "0.1.0" in A, "0.2.0" in B',
      ),
    );
  });

  it('does not hold against a comparison the sandbox a record made before it was recorded does not name', async () => {
    const a = await scanRecord(await record(runDir(), { ...SETTINGS, SANDBOX: 'auto' }, 'baseline', [['sample:1', scored(1, true)]]));
    const b = await scanRecord(await record(runDir(), SETTINGS, 'baseline', [['sample:1', scored(0, false)]]));

    expect(compareRecords(a, b).n_paired).toBe(1);
  });

  it('finds the records of a run directory, and of every run directory in a folder of them', async () => {
    const first = await record(runDir(), SETTINGS, 'baseline', [['sample:1', scored(1, true)]]);
    const otherRun = join(logDir(), 'log_2026-11-29_10-00-00');
    await mkdir(otherRun);
    const second = await record(otherRun, SETTINGS, 'baseline', [['sample:1', scored(1, true)]]);
    await mkdir(join(runDir(), 'assessments', 'not a record'));

    expect((await recordFolders(runDir())).map((found) => found.folder)).toEqual([first]);
    const inLogDir = await recordFolders(logDir(), 'logs');
    expect(inLogDir.map((found) => [found.folder, found.label]).sort()).toEqual([
      [first, join('logs', 'log_2026-11-28_10-00-00')],
      [second, join('logs', 'log_2026-11-29_10-00-00')],
    ]);
  });
});
