import { resolve } from 'node:path';
import type { ArvoDockerOptionsInput, EngineSettings } from '@arvo-rca/arvo-docker';
import { parseInodesFloor, parseMemory } from '@arvo-rca/sandbox';
import type { GreenConfig } from '../../green-config';
import { localSourceDirs, taskSources } from '../../task-assets';

/**
 * The sandboxes' options, from the green agent's configuration. CACHE_DIR and every task source read in
 * place (SAMPLES_DIR, an ARVO_DATA_URL that is a folder) hold `patch.diff`, and LOG_DIR (LOG_RUN_DIR too,
 * when it is set apart) holds earlier runs' records with their fixes, so they are private; a
 * SANDBOX_START_CONCURRENCY that is given holds the start pacing there. The engine is the one DOCKER_HOST,
 * DOCKER_TLS_VERIFY and DOCKER_CERT_PATH name; an ssh one is reached with DOCKER_SSH_IDENTITY,
 * DOCKER_SSH_KNOWN_HOSTS and SSH_AUTH_SOCK where they are given.
 */
export function sandboxOptionsOf(config: GreenConfig): ArvoDockerOptionsInput {
  return {
    sandbox: config.SANDBOX,
    tmpDir: config.TMP_DIR,
    commandTimeoutS: config.COMMAND_TIMEOUT_S,
    taskTimeoutS: config.TASK_TIMEOUT_S,
    maxOutputBytes: config.MAX_OUTPUT_BYTES,
    memoryBytes: parseMemory(config.CONTAINER_MEMORY),
    diskBytes: parseMemory(config.CONTAINER_DISK),
    diskFiles: config.CONTAINER_FILES,
    inodesFloor: parseInodesFloor(config.HOST_INODES_FLOOR),
    diskTotalBytes: config.TASKS_DISK_TOTAL === undefined ? undefined : parseMemory(config.TASKS_DISK_TOTAL),
    pids: config.CONTAINER_PIDS,
    cpus: config.CONTAINER_CPUS,
    cpuShares: config.CONTAINER_CPU_SHARES,
    startConcurrency: config.SANDBOX_START_CONCURRENCY,
    startPacing: config.SANDBOX_START_CONCURRENCY === undefined ? undefined : 'fixed',
    privatePaths: [config.CACHE_DIR, ...localSourceDirs(taskSources(config)), ...runRecordDirs(config)],
    engine: engineOf(config),
    images: imageBudgetOf(config),
  };
}

// The run records: LOG_DIR, and a run directory the launcher placed elsewhere.
function runRecordDirs(config: GreenConfig): string[] {
  return config.LOG_RUN_DIR === undefined ? [config.LOG_DIR] : [config.LOG_DIR, config.LOG_RUN_DIR];
}

// None of them set: the local socket.
function engineOf(config: GreenConfig): EngineSettings | undefined {
  const { DOCKER_HOST: host, DOCKER_TLS_VERIFY: tlsVerify, DOCKER_CERT_PATH: certPath } = config;
  const ssh = { identityFile: config.DOCKER_SSH_IDENTITY, knownHostsFile: config.DOCKER_SSH_KNOWN_HOSTS, authSocket: config.SSH_AUTH_SOCK };
  const given = [host, tlsVerify, certPath, ...Object.values(ssh)].some((value) => value !== undefined);
  return given ? { host, tlsVerify, certPath, ssh } : undefined;
}

// No budget (0): nothing recorded, nothing removed.
function imageBudgetOf(config: GreenConfig): ArvoDockerOptionsInput['images'] {
  const budgetBytes = parseMemory(config.IMAGE_DISK_BUDGET);
  return budgetBytes > 0 ? { budgetBytes, ledgerDir: resolve(config.CACHE_DIR) } : undefined;
}
