import { parseMemory, resolveSandboxOptions, type SandboxOptions, type SandboxOptionsInput } from '@arvo-rca/sandbox';

/**
 * What each of the bench's tasks may write, for its own sandboxes and for the green agent it starts: the
 * samples write a few KiB and the real trees some hundreds of MiB. Sixteen shares of it fit this machine's
 * free disk (TASKS_DISK_TOTAL's rule), and the loop-mounted disk of the real trees, where sixteen of the
 * default 20 GiB do not: a burst would wait for ever for the shares its own started tasks hold.
 */
export const BENCH_CONTAINER_DISK = '2g';

/** The options of a sandbox the bench starts itself: Docker, a long task limit, and the bench's disk share. */
export function benchSandboxOptions(input: SandboxOptionsInput = {}): SandboxOptions {
  return resolveSandboxOptions({ sandbox: 'docker', taskTimeoutS: 600, diskBytes: parseMemory(BENCH_CONTAINER_DISK), ...input });
}
