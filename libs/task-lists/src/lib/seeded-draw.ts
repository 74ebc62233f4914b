// Seeded draws of tasks, the same on every machine and Node version: integer arithmetic only.
//
// The generator is the project's one seeded generator, mulberry32 (@arvo-rca/stats SeededRandom): each step adds
// 0x6D2B79F5 to the state (mod 2^32) and returns t ^ (t >>> 14), where t = imul(s ^ (s >>> 15), s | 1), then
// t ^= t + imul(t ^ (t >>> 7), t | 61), all modulo 2^32 (s is the new state); the seed is the first state. A whole number below n is drawn by
// rejection: an output at or above 2^32 - (2^32 mod n) is replaced by the next one, then the output mod n
// is taken. Drawing k of a list of n (k < n) is a partial Fisher-Yates shuffle: for i = 0 .. k-1, j = i +
// (a number below n - i), positions i and j swap; the draw is positions 0 .. k-1, in that order. So the
// draw of k is the first k of a draw of more with the same seed. All n of a list of n is the list itself,
// in its order, as the original takes it when num_tasks is not below the list's length.
import { randomInt } from 'node:crypto';
import { SeededRandom } from '@arvo-rca/stats';

export const MAX_SEED = 2 ** 32 - 1;

/** How num_tasks tasks are taken from a list: a seeded draw (the default), or its first ones. */
export const SAMPLE_MODES = ['random', 'head'] as const;
export type SampleMode = (typeof SAMPLE_MODES)[number];

/** `count` entries of `list`, drawn with `seed` as the header says; throws a RangeError for a count the list cannot give. */
export function drawTasks<T>(list: readonly T[], count: number, seed: number): T[] {
  if (!Number.isInteger(count) || count < 0 || count > list.length) throw new RangeError(`cannot draw ${count} of a list of ${list.length}`);
  if (!isSeed(seed)) throw new RangeError(`the seed must be a whole number from 0 to ${MAX_SEED}, not ${seed}`);
  if (count === list.length) return [...list];
  const random = new SeededRandom(seed);
  const next = (): number => random.nextUint32();
  const pool = [...list];
  for (let i = 0; i < count; i++) {
    const j = i + below(next, pool.length - i);
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, count);
}

/** A fresh seed, for a draw whose request gives none: it is recorded, so that the draw can be repeated. */
export function randomSeed(): number {
  return randomInt(0, MAX_SEED + 1);
}

export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
}

// A uniform whole number below n, without the bias of a plain modulo.
function below(next: () => number, n: number): number {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const output = next();
    if (output < limit) return output % n;
  }
}
