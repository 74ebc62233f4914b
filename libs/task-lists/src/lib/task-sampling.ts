// How many tasks of a list a run takes, and how: num_tasks of them drawn with a seed (the default, as the
// original samples), or its first num_tasks (`sample: head`). The green agent reads it from a request's
// config, the runner from its flags; both check it and draw here, so they draw alike.
import { drawTasks, randomSeed, type SampleMode } from './seeded-draw';

export interface TaskSampling {
  numTasks?: number;
  seed?: number;
  sample?: SampleMode;
}

export type SamplingKey = 'num_tasks' | 'seed' | 'sample';

/** The tasks taken, and the seed of the draw (absent when nothing was drawn: no num_tasks, or the head). */
interface SampledTasks<T> {
  tasks: T[];
  seed?: number;
}

/**
 * What is wrong with a sampling of a list of `listSize` ids, each problem a sentence; `nameOf` writes a key
 * as the caller's user wrote it (`config.seed`, `--seed`). Each value is taken to be of its type already.
 */
export function samplingProblems(sampling: TaskSampling, listSize: number, nameOf: (key: SamplingKey) => string): string[] {
  const { numTasks, seed, sample } = sampling;
  const problems: string[] = [];
  if (numTasks !== undefined && numTasks > listSize) {
    problems.push(`${nameOf('num_tasks')} (${numTasks}) is larger than the list, which holds ${listSize} task${listSize === 1 ? '' : 's'}`);
  }
  if (numTasks === undefined && (seed !== undefined || sample !== undefined)) {
    const given = [seed === undefined ? '' : nameOf('seed'), sample === undefined ? '' : nameOf('sample')].filter(Boolean).join(' and ');
    problems.push(
      `${given} say${given.includes(' and ') ? '' : 's'} how ${nameOf('num_tasks')} tasks are taken from the list; give ${nameOf('num_tasks')} too`,
    );
  } else if (sample === 'head' && seed !== undefined) {
    problems.push(`${nameOf('seed')} draws nothing when ${nameOf('sample')} is head (the first ${nameOf('num_tasks')} tasks); leave one out`);
  }
  return problems;
}

/** The tasks of a run: the whole list, its head, or a draw with the given seed (a fresh one when none is given). Check samplingProblems first. */
export function sampleTasks<T>(list: readonly T[], sampling: TaskSampling): SampledTasks<T> {
  const { numTasks, sample = 'random' } = sampling;
  if (numTasks === undefined) return { tasks: [...list] };
  if (sample === 'head') return { tasks: list.slice(0, numTasks) };
  const seed = sampling.seed ?? randomSeed();
  return { tasks: drawTasks(list, numTasks, seed), seed };
}
