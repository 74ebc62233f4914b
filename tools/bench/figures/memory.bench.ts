import { formatExecute } from '@arvo-rca/a2a-protocol';
import { expectSuccess, type BenchRig } from '../rigs/bench-rig';
import { median, round } from '../report/bench-stats';

export interface MemoryFigures {
  output_bytes: number;
  /** Peak RSS of the green process during the command, minus its RSS just before; MiB, median over repeats. */
  rss_growth_mb: number;
  rss_growth_max_mb: number;
  rss_before_mb: number;
  repeats: number;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const ELIDED = /\[\.\.\. (\d+) bytes elided \.\.\.\]/;
// The most the green agent keeps of one output (its default MAX_OUTPUT_BYTES is 100 KiB).
const KEPT_AT_MOST = 1024 * 1024;

/**
 * A command printing `bytes` runs through the green agent's exec path (A2A in, container exec
 * stream, output cap, A2A reply) while the probe inside the green process tracks its peak RSS.
 */
export async function measureMemory(rig: BenchRig, bytes = GIB, repeats = 3): Promise<MemoryFigures> {
  const command = (size: number): string => `yes | head -c ${size}`;
  const { result } = await rig.withSessions(1, async ([session]) => {
    expectPrinted(expectSuccess(await session.send(formatExecute(command(16 * MIB))), 'warm-up'), 16 * MIB);
    const growths: number[] = [];
    const befores: number[] = [];
    for (let repeat = 0; repeat < repeats; repeat++) {
      await rig.green.probe.mark('memory');
      const output = expectSuccess(await session.send(formatExecute(command(bytes))), command(bytes));
      const { rssBytes } = await rig.green.probe.report('memory');
      expectPrinted(output, bytes);
      growths.push(rssBytes.peak - rssBytes.baseline);
      befores.push(rssBytes.baseline);
    }
    return { growths, befores };
  });
  return {
    output_bytes: bytes,
    rss_growth_mb: round(median(result.growths) / MIB, 1),
    rss_growth_max_mb: round(Math.max(...result.growths) / MIB, 1),
    rss_before_mb: round(median(result.befores) / MIB, 1),
    repeats,
  };
}

// The reply must account for every byte: most elided, the rest kept. Otherwise the command did not run as meant.
function expectPrinted(output: string, bytes: number): void {
  const elided = Number(ELIDED.exec(output)?.[1] ?? 0);
  if (elided > bytes || elided < bytes - KEPT_AT_MOST) {
    throw new Error(`the green agent's reply accounts for ${elided} elided bytes of ${bytes} printed: ${output.slice(0, 200)}`);
  }
}
