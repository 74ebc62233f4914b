/** The value below which `p` percent of `values` lie (nearest rank on the sorted values); NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** The middle value (mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Rounds for the report: figures are noisy beyond a few significant digits. */
export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` reading). */
export function elapsedMs(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/**
 * Times each of `ways` `rounds` times, interleaved round by round with the order rotating, so that the
 * machine's noise falls on all of them alike; `warmup` rounds first, untimed. Milliseconds, by way.
 */
export async function interleavedTimes<W extends string>(ways: Record<W, () => Promise<unknown>>, rounds: number, warmup = 5): Promise<Record<W, number[]>> {
  const names = Object.keys(ways) as W[];
  const times = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<W, number[]>;
  for (let index = -warmup; index < rounds; index++) {
    for (const name of rotated(names, index)) {
      const started = process.hrtime.bigint();
      await ways[name]();
      if (index >= 0) times[name].push(elapsedMs(started));
    }
  }
  return times;
}

function rotated<T>(items: readonly T[], by: number): T[] {
  const shift = ((by % items.length) + items.length) % items.length;
  return [...items.slice(shift), ...items.slice(0, shift)];
}
