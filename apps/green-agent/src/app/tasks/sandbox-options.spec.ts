import { resolve } from 'node:path';
import { validateEnvironment } from '@arvo-rca/agent-app';
import { DEFAULT_SANDBOX_OPTIONS, resolveSandboxOptions } from '@arvo-rca/sandbox';
import { GreenConfig } from '../green-config';
import { sandboxOptionsOf } from './sandbox-options';

const configOf = validateEnvironment(GreenConfig);

describe("the sandboxes' options", () => {
  it("are read from the green agent's configuration, CACHE_DIR and the task sources read in place being private", () => {
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
      CONTAINER_PIDS: '256',
      CONTAINER_CPUS: '1.5',
      SANDBOX_START_CONCURRENCY: '3',
    });

    expect(resolveSandboxOptions(sandboxOptionsOf(config))).toEqual({
      ...DEFAULT_SANDBOX_OPTIONS,
      sandbox: 'docker',
      tmpDir: '/tmp/rcabench',
      privatePaths: ['/var/cache/arvo-rca', '/usr/share/arvo/data', '/usr/local/share/arvo-samples'],
      commandTimeoutS: 30,
      taskTimeoutS: 900,
      maxOutputBytes: 4096,
      memoryBytes: 2 * 1024 ** 3,
      diskBytes: 50 * 1024 ** 3,
      diskTotalBytes: 120 * 1024 ** 3,
      pids: 256,
      cpus: 1.5,
      // Given, the start pacing is held there; unset, it adapts to the engine from one per CPU.
      startConcurrency: 3,
      startPacing: 'fixed',
    });
  });

  it("are the sandboxes' own defaults for variables that are not set, the cache and the samples kept private", () => {
    expect(resolveSandboxOptions(sandboxOptionsOf(configOf({})))).toEqual({
      ...DEFAULT_SANDBOX_OPTIONS,
      // ARVO_DATA_URL is remote by default: nothing of it is on this host.
      privatePaths: [resolve('.cache/arvo-rca'), resolve('samples')],
    });
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
