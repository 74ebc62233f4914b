// Seeded draws of tasks, the same on every machine and Node version: integer arithmetic only.
//
// The generator is mulberry32 with 32-bit state: each step adds 0x6D2B79F5 to the state (mod 2^32) and
// returns t ^ (t >>> 14), where t = imul(s ^ (s >>> 15), s | 1), then t ^= t + imul(t ^ (t >>> 7), t | 61), all
// modulo 2^32 (s is the new state); the seed is the first state. A whole number below n is drawn by
// rejection: an output at or above 2^32 - (2^32 mod n) is replaced by the next one, then the output mod n
// is taken. Drawing k of a list of n (k < n) is a partial Fisher-Yates shuffle: for i = 0 .. k-1, j = i +
// (a number below n - i), positions i and j swap; the draw is positions 0 .. k-1, in that order. So the
// draw of k is the first k of a draw of more with the same seed. All n of a list of n is the list itself,
// in its order, as the original takes it when num_tasks is not below the list's length.
import { randomInt } from 'node:crypto';

export const MAX_SEED = 2 ** 32 - 1;

/** How num_tasks tasks are taken from a list: a seeded draw (the default), or its first ones. */
export const SAMPLE_MODES = ['random', 'head'] as const;
export type SampleMode = (typeof SAMPLE_MODES)[number];

/** mulberry32 from `seed`: each call, the next 32-bit output as a whole number from 0 to 2^32 - 1. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `count` entries of `list`, drawn with `seed` as the header says; throws a RangeError for a count the list cannot give. */
export function drawTasks<T>(list: readonly T[], count: number, seed: number): T[] {
  if (!Number.isInteger(count) || count < 0 || count > list.length) throw new RangeError(`cannot draw ${count} of a list of ${list.length}`);
  if (!isSeed(seed)) throw new RangeError(`the seed must be a whole number from 0 to ${MAX_SEED}, not ${seed}`);
  if (count === list.length) return [...list];
  const next = mulberry32(seed);
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
