// The Python reference of the bootstrap (fixtures/bootstrap-reference.py), run as a process: what the
// specs compare the TypeScript with, here and in the libs that build on it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { BootstrapSettings, Interval } from './bootstrap';

const SCRIPT = join(__dirname, '..', '..', 'fixtures', 'bootstrap-reference.py');

function runReference<T>(request: object): T {
  return JSON.parse(execFileSync('python3', [SCRIPT], { input: JSON.stringify(request), encoding: 'utf8' })) as T;
}

/** Each column's interval of its mean over the rows, as the reference draws it. */
export function referenceIntervals(rows: readonly (readonly number[])[], settings: BootstrapSettings): Interval[] {
  return runReference<{ intervals: Interval[] }>({ ...settings, rows }).intervals;
}

/** Each column's interval of the mean of B minus A, from runs A's and B's rows of each task. */
export function referencePairedIntervals(pairs: readonly [readonly number[], readonly number[]][], settings: BootstrapSettings): Interval[] {
  return runReference<{ intervals: Interval[] }>({ ...settings, pairs }).intervals;
}

/** The generator's first `count` numbers for `seed`. */
export function referenceDraws(seed: number, count: number): number[] {
  return runReference<{ draws: number[] }>({ seed, draws: count }).draws;
}
