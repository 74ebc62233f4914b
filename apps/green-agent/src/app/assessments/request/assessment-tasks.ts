// Which tasks an assessment runs: its list (config.task_ids, or config.task_ids_file: a named list or a file
// on this side), num_tasks of it (drawn with the seed, or its head), cut to num_instances, then this
// shard's part. Every problem is named; the list is read only when its key is valid.
import type { TaskRef } from '@arvo-rca/common';
import type { Shard, TaskDraw } from '@arvo-rca/results';
import { sampleTasks, samplingProblems, TaskListError, type SampleMode, type TaskListReader, type TaskSampling } from '@arvo-rca/task-lists';
import { TaskAssetsError } from '../../task-assets';
import type { ConfigReading } from './assessment-config';

/** What turns task id text into a task of a configured source (the green agent's TaskAssetsService); throws a TaskAssetsError. */
export interface TaskIdParser {
  parse(text: string): TaskRef;
}

/** The config values that choose the tasks, as the request gave them; `invalid` holds the keys the validator refused. */
export interface TaskConfigValues {
  task_ids?: unknown[];
  task_ids_file?: string;
  num_tasks?: number;
  num_instances?: number;
  seed?: number;
  sample?: SampleMode;
}

/** The tasks this shard runs, in order, and how they were drawn when they were. */
export interface TaskChoice {
  tasks: TaskRef[];
  draw?: TaskDraw;
}

/** What the choice reads: the task sources and the task lists of this green agent. */
export interface TaskSources {
  taskIds: TaskIdParser;
  lists: TaskListReader;
}

/** A list as the request gave it: its ids with where each was written, and its name for the record (null for task_ids). */
interface RequestedList {
  ids: unknown[];
  where: (index: number) => string;
  origin: string | null;
}

export async function chooseTasks(
  config: TaskConfigValues,
  invalid: ReadonlySet<string>,
  reading: ConfigReading,
  shard: Shard,
  sources: TaskSources,
): Promise<TaskChoice | { problems: string[] }> {
  const list = await requestedList(config, invalid, reading, sources.lists);
  if (typeof list === 'string') return { problems: [list] };
  if (!list) return { problems: [] };
  const parsed = list.ids.map((id, index) => parseTaskId(id, list.where(index), sources.taskIds));
  const problems = parsed.flatMap((task) => (typeof task === 'string' ? [task] : []));
  const sampling: TaskSampling = { numTasks: config.num_tasks, seed: config.seed, sample: config.sample };
  if (['num_tasks', 'seed', 'sample'].some((key) => invalid.has(key))) return { problems };
  const nameOf = (key: 'num_tasks' | 'seed' | 'sample'): string => reading.path(key);
  problems.push(...samplingProblems(sampling, list.ids.length, nameOf), ...seedProblems(sampling, list.ids.length, shard, nameOf));
  if (problems.length > 0) return { problems };
  const listed = parsed.flatMap((task) => (typeof task === 'string' ? [] : [task]));
  const { tasks: sampled, seed } = sampleTasks(listed, sampling);
  // num_instances caps the whole run, drawn or not, before it is split.
  const tasks = sampled.slice(0, config.num_instances ?? sampled.length);
  const draw: TaskDraw | undefined =
    seed === undefined ? undefined : { list: list.origin, list_size: listed.length, seed, task_ids: sampled.map((task) => task.taskId) };
  return {
    // Round-robin, as the reference green agent splits its list (`task_names[shard_index::num_shards]`).
    tasks: tasks.filter((_, position) => position % shard.count === shard.index),
    ...(draw ? { draw } : {}),
  };
}

/**
 * The list the request names: its task_ids, or the list task_ids_file names (read here); a sentence when
 * it names both or the list cannot be read; undefined when the validator already named what is wrong.
 */
async function requestedList(
  config: TaskConfigValues,
  invalid: ReadonlySet<string>,
  reading: ConfigReading,
  lists: TaskListReader,
): Promise<RequestedList | string | undefined> {
  const { task_ids: ids, task_ids_file: file } = config;
  if (ids !== undefined && file !== undefined) {
    return `${reading.path('task_ids')} and ${reading.path('task_ids_file')} both name the tasks; give one of them`;
  }
  if (file === undefined) {
    if (invalid.has('task_ids') || !Array.isArray(ids)) return undefined;
    return { ids, where: (index) => `${reading.path('task_ids')}[${index}]`, origin: null };
  }
  if (invalid.has('task_ids_file')) return undefined;
  try {
    const list = await lists.read(file);
    return { ids: list.ids, where: (index) => `${reading.path('task_ids_file')} (${list.origin}) line ${list.lines[index]}`, origin: list.origin };
  } catch (error) {
    if (error instanceof TaskListError) return `${reading.path('task_ids_file')}: ${error.message}`;
    throw error;
  }
}

/** Shards of one assessment draw the same tasks only from the same seed: a drawn seed would differ on each. */
function seedProblems(sampling: TaskSampling, listSize: number, shard: Shard, nameOf: (key: 'num_tasks' | 'seed' | 'sample') => string): string[] {
  const { numTasks, seed, sample = 'random' } = sampling;
  const draws = numTasks !== undefined && numTasks < listSize && sample === 'random';
  if (!draws || shard.count === 1 || seed !== undefined) return [];
  return [
    `${nameOf('seed')} must be given when ${nameOf('num_tasks')} tasks are drawn for ${shard.count} shards: each shard draws the same tasks only from the same seed`,
  ];
}

/** The task an entry of the list names, or the problem with it. */
function parseTaskId(id: unknown, where: string, taskIds: TaskIdParser): TaskRef | string {
  if (typeof id !== 'string' && typeof id !== 'number') return `${where} (${JSON.stringify(id)}) is not a task id such as "arvo:14368" or 14368`;
  try {
    return taskIds.parse(String(id));
  } catch (error) {
    if (error instanceof TaskAssetsError) return `${where}: ${error.message}`;
    throw error;
  }
}
