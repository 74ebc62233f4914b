// The tasks of a new assessment as the runner sees them: its list read here (ids, a named list from the
// green agent's TASK_LISTS_DIR, a file), num_tasks of it drawn as each green agent draws them (the same
// function, the same seed), and the config that asks a green agent for those tasks.
import { resolve } from 'node:path';
import type { TaskConfigBody } from '@arvo-rca/a2a-protocol';
import { sampleTasks, samplingProblems, TaskListError, type SamplingKey, type TaskListReader } from '@arvo-rca/task-lists';
import { UsageError, type TaskChoice, type TaskListChoice } from './runner-options';

export interface ChosenTasks {
  /** The tasks, in the order the green agents run them: what the runner makes images for and counts. */
  tasks: string[];
  /** A named list goes by its name (the record names it), other lists as their ids; a draw always with its seed. */
  config: TaskConfigBody;
  /** How they were taken from a longer list, for the terminal; absent when the whole list runs. */
  how?: string;
}

const FLAGS: Record<SamplingKey, string> = { num_tasks: '--num-tasks', seed: '--seed', sample: '--sample' };
// Tasks named on the line that says how they were taken; the record keeps them all.
const NAMES_SHOWN = 20;

/** Reads the list and takes the tasks; a list that cannot be read, or a sampling it cannot give, is a UsageError that says why. */
export async function chooseRunTasks(choice: TaskChoice, lists: TaskListReader): Promise<ChosenTasks> {
  const { list, sampling } = choice;
  const ids = list.kind === 'ids' ? list.ids : await readList(list, lists);
  const problems = samplingProblems(sampling, ids.length, (key) => FLAGS[key]);
  if (problems.length > 0) throw new UsageError(problems.join('\n'));
  // Every green agent is sent the seed, so that the shards draw one list.
  const { tasks, seed } = sampleTasks(ids, sampling);
  const config: TaskConfigBody = {
    ...(list.kind === 'named' ? { task_ids_file: list.name } : { task_ids: ids }),
    ...(sampling.numTasks === undefined ? {} : { num_tasks: sampling.numTasks }),
    ...(seed === undefined ? {} : { seed }),
    ...(sampling.sample === 'head' ? { sample: 'head' } : {}),
  };
  if (sampling.numTasks === undefined) return { tasks, config };
  const from = `${list.kind === 'named' ? list.name : list.kind === 'file' ? list.path : 'the list'} (${ids.length} tasks)`;
  const way =
    seed === undefined ? `the first ${tasks.length} of ${from}` : `${tasks.length} drawn from ${from} with seed ${seed}${seedNote(sampling.seed, seed)}`;
  return { tasks, config, how: `${way}: ${named(tasks)}` };
}

async function readList(list: Exclude<TaskListChoice, { kind: 'ids' }>, lists: TaskListReader): Promise<string[]> {
  try {
    // A file flag names a file, even one whose name looks like a list's.
    return (await lists.read(list.kind === 'named' ? `@${list.name}` : resolve(list.path))).ids;
  } catch (error) {
    if (error instanceof TaskListError) throw new UsageError(`${list.kind === 'named' ? '--tasks' : '--tasks-file'}: ${error.message}`);
    throw error;
  }
}

function seedNote(given: number | undefined, seed: number): string {
  return given === undefined ? ` (drawn here; --seed ${seed} draws them again)` : '';
}

function named(tasks: string[]): string {
  const more = tasks.length > NAMES_SHOWN ? `, ... (${tasks.length - NAMES_SHOWN} more, all in the record)` : '';
  return `${tasks.slice(0, NAMES_SHOWN).join(', ')}${more}`;
}
