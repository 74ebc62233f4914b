import { randomBytes } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SOLVER_USAGE_FIELDS, type AssessmentResult, type TaskResult } from '@arvo-rca/results';
import { RecordLayout, type RecordScan } from '@arvo-rca/run-record';
import { SAMPLES_DIR } from '../processes/agent-processes';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';

/** A copy of the bundled samples with one more: sample 3 under an id whose image tag exists nowhere. */
export interface SamplesWithoutImage {
  dir: string;
  /** `sample:<id>` of the extra sample. */
  task: string;
  /** The image the green agent will look for, and fail to pull (there is no registry here). */
  image: string;
  /** The sample whose copy it is, and its image, which can stand in for the missing one. */
  copyOf: { task: string; image: string };
}

export function samplesWithoutImage(parent: string): SamplesWithoutImage {
  const dir = join(parent, 'samples');
  const id = `gone-${randomBytes(4).toString('hex')}`;
  cpSync(SAMPLES_DIR, dir, { recursive: true });
  cpSync(join(SAMPLES_DIR, '3'), join(dir, id), { recursive: true });
  return { dir, task: `sample:${id}`, image: sampleImageTag(id), copyOf: { task: 'sample:3', image: sampleImageTag('3') } };
}

// What may differ between two runs of the same tasks: how long they took, what the solver spent (each task's,
// and the models' means), and the masked id it knew each task by (drawn afresh for every run).
const TIMES_AND_COSTS = ['time_used', 'models', 'wall_time_sec', ...SOLVER_USAGE_FIELDS, 'masked_id'] as const;

type Comparable<T> = Omit<T, (typeof TIMES_AND_COSTS)[number]>;

/** A task's entry in the Result, without its times and costs. */
export function comparableTask(task: TaskResult): Comparable<TaskResult> {
  return withoutTimesAndCosts(task);
}

/** The Result without times and costs, in the order of its tasks: what an interrupted run must give as an uninterrupted one does. */
export function comparableResult(result: AssessmentResult): Comparable<AssessmentResult> & { task_order: string[] } {
  const tasks = Object.fromEntries(Object.entries(result.task_metrics).map(([key, task]) => [key, comparableTask(task)]));
  return { ...withoutTimesAndCosts(result), task_metrics: tasks as AssessmentResult['task_metrics'], task_order: Object.keys(result.task_metrics) };
}

function withoutTimesAndCosts<T extends object>(value: T): Comparable<T> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !(TIMES_AND_COSTS as readonly string[]).includes(key))) as Comparable<T>;
}

/** Each recorded task's result.json as it is on disk, by result key: a task written again would differ. */
export function resultFiles(scan: RecordScan): Map<string, string> {
  return new Map([...scan.done.keys()].map((resultKey) => [resultKey, readFileSync(new RecordLayout(scan.folder).taskFile(resultKey), 'utf8')]));
}

export function readResult(file: string): AssessmentResult {
  return JSON.parse(readFileSync(file, 'utf8')) as AssessmentResult;
}

/** Every file of a record's folder, by its path in the folder, with its content: two records equal file for file compare equal. */
export function recordFiles(folder: string): Map<string, string> {
  const files = readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const paths = files.map((entry) => join(entry.parentPath, entry.name)).sort();
  return new Map(paths.map((path) => [relative(folder, path), readFileSync(path, 'utf8')]));
}
