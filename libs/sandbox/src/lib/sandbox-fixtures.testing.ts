import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A task folder as the green agent lays it out: `<tmpDir>/<source>_<id>-<uuid>/workspace/` with `shared/`. */
export async function makeTaskWorkspace(tmpDir: string, task = 'sample_1'): Promise<string> {
  const workspace = join(tmpDir, `${task}-${randomUUID()}`, 'workspace');
  await mkdir(join(workspace, 'shared'), { recursive: true });
  await writeFile(join(workspace, '1_error.txt'), 'ERROR: AddressSanitizer: heap-buffer-overflow\n');
  return workspace;
}

/** Peak resident set size of this process while `work` runs, sampled every 20 ms. */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growthBytes: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, growthBytes: peak - before };
  } finally {
    clearInterval(timer);
  }
}

/** What `promise` settles to, or 'pending' when it has not settled within `ms`: a start that waits, say. */
export async function settledWithin<T>(promise: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([promise, pending]);
  } finally {
    clearTimeout(timer);
  }
}
