import pLimit from 'p-limit';
import type { GroundTruth } from '@arvo-rca/rca-eval';
import type { TaskMetrics, TaskRecordDraft } from '@arvo-rca/results';
import { taskDraft } from '@arvo-rca/results/testing';
import { RecordWriter, taskFolderName, type TaskEvidence } from '@arvo-rca/run-record';

/** A task as the green agent ends it: its record draft and its evidence, as RecordWriter.writeTask takes them. */
export type BenchTask = [TaskRecordDraft, TaskEvidence];

const WRITES_AT_ONCE = 16;

/** The ground truth of every synthetic task: a fix in one function of one file. */
export const BENCH_TRUTH: GroundTruth = {
  spans: [{ file: 'src/decode.c', function: 'decode_dict', vulSpan: { start: 158, end: 163 }, fixSpan: { start: 158, end: 164 }, change: 'modified' }],
  project: 'bench',
  notes: [],
};

/** `count` task ids, `arvo:10000` on. */
export function benchTaskIds(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `arvo:${10_000 + index}`);
}

/**
 * A synthetic run record in `runDir`, written by RecordWriter as a green agent writes it, 16 tasks at once:
 * the tasks of `taskIds`, solved by `model`, each as `finished` makes it.
 */
export async function writeBenchRecord(
  runDir: string,
  taskIds: string[],
  model: string,
  finished: (taskId: string, index: number) => BenchTask,
): Promise<RecordWriter> {
  const writer = await RecordWriter.create(runDir, {
    tasks: taskIds,
    concurrency: 8,
    shard: { index: 0, count: 1 },
    assessor: { name: 'arvo-rca green agent', version: 'bench' },
    solver: { name: 'arvo-rca purple agent', version: 'bench', model, url: 'http://127.0.0.1:9019/' },
    settings: { SANDBOX: 'docker', TASK_TIMEOUT_S: 3600 },
    settings_hash: 'bench',
  });
  const limit = pLimit(WRITES_AT_ONCE);
  await Promise.all(taskIds.map((taskId, index) => limit(() => writer.writeTask(...finished(taskId, index)))));
  return writer;
}

/** A task finished as a typical run ends one, with these metrics and this evidence. */
export function benchTask(taskId: string, metrics: TaskMetrics, evidence: TaskEvidence): BenchTask {
  const run = { seconds: 312.4, commands: 41, failed_commands: 6, attempts: 1 };
  return [taskDraft(taskId, metrics, { context_id: `bench-${taskFolderName(taskId)}`, run }), evidence];
}
