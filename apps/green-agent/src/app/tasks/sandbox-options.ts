import { parseMemory, type SandboxOptionsInput } from '@arvo-rca/sandbox';
import type { GreenConfig } from '../green-config';
import { localSourceDirs, taskSources } from '../task-assets';

/**
 * The sandboxes' options, from the green agent's configuration. CACHE_DIR and every task source read in
 * place (SAMPLES_DIR, an ARVO_DATA_URL that is a folder) hold `patch.diff`, so they are private; a
 * SANDBOX_START_CONCURRENCY that is given holds the start pacing there.
 */
export function sandboxOptionsOf(config: GreenConfig): SandboxOptionsInput {
  return {
    sandbox: config.SANDBOX,
    tmpDir: config.TMP_DIR,
    commandTimeoutS: config.COMMAND_TIMEOUT_S,
    taskTimeoutS: config.TASK_TIMEOUT_S,
    maxOutputBytes: config.MAX_OUTPUT_BYTES,
    memoryBytes: parseMemory(config.CONTAINER_MEMORY),
    diskBytes: parseMemory(config.CONTAINER_DISK),
    pids: config.CONTAINER_PIDS,
    cpus: config.CONTAINER_CPUS,
    startConcurrency: config.SANDBOX_START_CONCURRENCY,
    startPacing: config.SANDBOX_START_CONCURRENCY === undefined ? undefined : 'fixed',
    privatePaths: [config.CACHE_DIR, ...localSourceDirs(taskSources(config))],
  };
}
