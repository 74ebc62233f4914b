import { resolve } from 'node:path';
import { validateEnvironment } from '@arvo-rca/agent-app';
import { DEFAULT_SANDBOX_OPTIONS, resolveSandboxOptions } from '@arvo-rca/sandbox';
import { GreenConfig } from '../../green-config';
import { sandboxOptionsOf } from './sandbox-options';

const configOf = validateEnvironment(GreenConfig);

describe("the sandboxes' options", () => {
  it("are read from the green agent's configuration, CACHE_DIR, the task sources read in place and the run records being private", () => {
    const config = configOf({
      SANDBOX: 'docker',
      TMP_DIR: '/tmp/rcabench',
      CACHE_DIR: '/var/cache/arvo-rca',
      ARVO_DATA_URL: 'file:///usr/share/arvo/data',
      SAMPLES_DIR: '/usr/local/share/arvo-samples',
      COMMAND_TIMEOUT_S: '30',
      TASK_TIMEOUT_S: '900',
      MAX_OUTPUT_BYTES: '4096',
      CONTAINER_MEMORY: '2g',
      CONTAINER_DISK: '50g',
      TASKS_DISK_TOTAL: '120g',
      CONTAINER_FILES: '300000',
      HOST_INODES_FLOOR: '250000',
      CONTAINER_PIDS: '256',
      CONTAINER_CPUS: '1.5',
      CONTAINER_CPU_SHARES: '512',
      SANDBOX_START_CONCURRENCY: '3',
      LOG_DIR: '/usr/local/share/arvo-logs',
      LOG_RUN_DIR: '/srv/arvo-run',
    });

    expect(resolveSandboxOptions(sandboxOptionsOf(config))).toEqual({
      ...DEFAULT_SANDBOX_OPTIONS,
      sandbox: 'docker',
      tmpDir: '/tmp/rcabench',
      privatePaths: ['/var/cache/arvo-rca', '/usr/share/arvo/data', '/usr/local/share/arvo-samples', '/usr/local/share/arvo-logs', '/srv/arvo-run'],
      commandTimeoutS: 30,
      taskTimeoutS: 900,
      maxOutputBytes: 4096,
      memoryBytes: 2 * 1024 ** 3,
      diskBytes: 50 * 1024 ** 3,
      diskTotalBytes: 120 * 1024 ** 3,
      diskFiles: 300_000,
      inodesFloor: { inodes: 250_000 },
      pids: 256,
      cpus: 1.5,
      cpuShares: 512,
      // Given, the start pacing is held there; unset, it adapts to the engine from one per CPU.
      startConcurrency: 3,
      startPacing: 'fixed',
    });
  });

  it("are the sandboxes' own defaults for variables that are not set, the cache, the samples and the run records kept private", () => {
    expect(resolveSandboxOptions(sandboxOptionsOf(configOf({})))).toEqual({
      ...DEFAULT_SANDBOX_OPTIONS,
      // ARVO_DATA_URL is remote by default: nothing of it is on this host.
      privatePaths: [resolve('.cache/arvo-rca'), resolve('samples'), resolve('logs')],
    });
  });

  it('take HOST_INODES_FLOOR as a share of the inodes or a count, and refuse at boot what is neither, or a bound of files under 1,000', () => {
    expect(sandboxOptionsOf(configOf({ HOST_INODES_FLOOR: '2.5%' })).inodesFloor).toEqual({ percent: 2.5 });
    expect(sandboxOptionsOf(configOf({ HOST_INODES_FLOOR: '0' })).inodesFloor).toEqual({ inodes: 0 });
    expect(() => configOf({ HOST_INODES_FLOOR: 'lots' })).toThrow(/HOST_INODES_FLOOR must be a percentage below 100/);
    expect(() => sandboxOptionsOf(configOf({ HOST_INODES_FLOOR: '100%' }))).toThrow(
      /the inodes' floor must be a percentage such as 5% or a count such as 200000, got "100%"/,
    );
    expect(() => configOf({ CONTAINER_FILES: '10' })).toThrow(/CONTAINER_FILES/);
  });

  it("refuse at boot a CPU weight the engine would not take as given (Docker's bounds: 2 to 262144)", () => {
    for (const shares of ['1', '262145', '1.5']) expect(() => configOf({ CONTAINER_CPU_SHARES: shares })).toThrow(/CONTAINER_CPU_SHARES/);
    expect(sandboxOptionsOf(configOf({ CONTAINER_CPU_SHARES: '1024' })).cpuShares).toBe(1024);
  });

  it('name the engine DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH give, and none when they are unset', () => {
    const config = configOf({ DOCKER_HOST: 'tcp://10.0.0.2:2376', DOCKER_TLS_VERIFY: 'on', DOCKER_CERT_PATH: '/etc/arvo-rca/engine' });

    expect(sandboxOptionsOf(config).engine).toEqual({ host: 'tcp://10.0.0.2:2376', tlsVerify: true, certPath: '/etc/arvo-rca/engine', ssh: {} });
    expect(sandboxOptionsOf(configOf({})).engine).toBeUndefined();
  });

  it("name an ssh engine's key, known hosts and agent from the configuration, not from this process's environment", () => {
    const config = configOf({
      DOCKER_HOST: 'ssh://builder@10.0.0.3:2222',
      DOCKER_SSH_IDENTITY: '/etc/arvo-rca/engine_key',
      DOCKER_SSH_KNOWN_HOSTS: '/etc/arvo-rca/known_hosts',
      SSH_AUTH_SOCK: '/run/agent.sock',
    });

    expect(sandboxOptionsOf(config).engine).toEqual({
      host: 'ssh://builder@10.0.0.3:2222',
      tlsVerify: undefined,
      certPath: undefined,
      ssh: { identityFile: '/etc/arvo-rca/engine_key', knownHostsFile: '/etc/arvo-rca/known_hosts', authSocket: '/run/agent.sock' },
    });
  });
});
