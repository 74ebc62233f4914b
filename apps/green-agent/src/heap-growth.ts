import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what a full collection left live, in percent: 300 is a
 * factor of 4, the largest V8 picks on its own (when the program allocates fast against its collector).
 * V8 reads it at every full collection. An unknown flag is only complained of on stderr, so its spec checks
 * that each Node the project supports knows it.
 */
export const HEAP_GROWTH_FLAG = '--heap-growing-percent=300';

/**
 * Fixes the heap's growth after a full collection at V8's own largest step, in place of the step V8 infers
 * from how fast the agent allocated lately.
 *
 * Why: the agent idles between tasks, so V8 infers a small step (live 37 MB, limit 77 to 81 MB). A task's
 * tree then passes through the main thread (84 MB of small objects and 80 MB of buffers for a tree of
 * 80 MB), and with less room left than the young generation holds (64 MB), V8 begins the next incremental
 * marking as soon as the last one ends: 4 to 8 full collections in one start, none of the cheap young ones,
 * 200 to 400 ms of its helper threads' time on two cores, and `real_task` 1.03 to 1.18 × the original's way.
 * With the step fixed: 3 full collections over a whole run of 12 starts, the helpers at 10 to 120 ms a start,
 * and 0.87 to 1.00 × over eight runs (docs/bench.md). The resident memory this costs stays within the bench's bound
 * (`memory`: 1.1 MiB of growth for 1 GiB of output).
 *
 * The flag is read at each full collection, so setting it at boot, before the agent has allocated much,
 * takes effect for the whole run.
 */
export function fixHeapGrowth(): void {
  setFlagsFromString(HEAP_GROWTH_FLAG);
}
