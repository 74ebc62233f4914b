import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { errorReportName, SHARED_DIR } from '@arvo-rca/common';
import { DockerEngine, DockerSandboxFactory } from '@arvo-rca/arvo-docker';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type { Sandbox } from '@arvo-rca/sandbox';
import { benchSandboxOptions } from '../rigs/bench-sandbox-options';
import { interleavedTimes, median, percentile, round } from '../report/bench-stats';
import { dockerodeExec } from '../probes/direct-exec';
import { withTlsEngine } from '../rigs/tls-engine-rig';

export interface RemoteEngineFigures {
  n: number;
  /** Where the remote engine answered: a dockerd on loopback TCP with TLS. */
  address: string;
  /** A sandbox command (`true` through the task's shell session) on the local socket, and on the TLS engine. */
  local_ms: number;
  tls_ms: number;
  tls_vs_local: number;
  local_p90_ms: number;
  tls_p90_ms: number;
  /** A plain dockerode exec of `true` on each: what the engine and the transport cost alone. */
  local_dockerode_ms: number;
  tls_dockerode_ms: number;
  tls_dockerode_vs_local: number;
}

type Way = 'local' | 'tls' | 'localDockerode' | 'tlsDockerode';
const WAYS: readonly Way[] = ['local', 'tls', 'localDockerode', 'tlsDockerode'];

/**
 * Exec round trip on a remote engine over TCP with TLS against the local socket, in the same run: a
 * sandbox on each engine (same image, same options), `true` run in each in turn, round by round with the
 * order rotating, so that the machine's noise falls on both alike. Both engines are on this machine, so
 * the figure is what TLS and TCP add, not a network's latency.
 */
export async function measureRemoteEngine(root: string, local: Docker, owner: string, n = 200): Promise<RemoteEngineFigures> {
  return withTlsEngine(root, [sampleImageTag('1')], async (remote, address, remoteEngine) => {
    const scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-remote-'));
    const options = benchSandboxOptions({ tmpDir: scratch });
    const factories = [new DockerSandboxFactory(DockerEngine.fromEnvironment(), options, owner), new DockerSandboxFactory(remoteEngine, options, owner)];
    try {
      const [onLocal, onTls] = await Promise.all(factories.map((factory) => startSandbox(factory, scratch)));
      const [localContainer, tlsContainer] = await Promise.all([containerOf(local, onLocal), containerOf(remote, onTls)]);
      const run: Record<Way, () => Promise<void>> = {
        local: () => expectTrue(onLocal),
        tls: () => expectTrue(onTls),
        localDockerode: async () => expectZero(await dockerodeExec(localContainer, ['true'])),
        tlsDockerode: async () => expectZero(await dockerodeExec(tlsContainer, ['true'])),
      };
      return figures(n, address, await interleavedTimes(run, n));
    } finally {
      await Promise.all(factories.map((factory) => factory.stopAll()));
      rmSync(scratch, { recursive: true, force: true });
    }
  });
}

function figures(n: number, address: string, times: Record<Way, number[]>): RemoteEngineFigures {
  const [local, tls, localDockerode, tlsDockerode] = WAYS.map((way) => median(times[way]));
  return {
    n,
    address,
    local_ms: round(local),
    tls_ms: round(tls),
    tls_vs_local: round(tls / local),
    local_p90_ms: round(percentile(times.local, 90)),
    tls_p90_ms: round(percentile(times.tls, 90)),
    local_dockerode_ms: round(localDockerode),
    tls_dockerode_ms: round(tlsDockerode),
    tls_dockerode_vs_local: round(tlsDockerode / localDockerode),
  };
}

async function startSandbox(factory: DockerSandboxFactory, scratch: string): Promise<Sandbox> {
  const workspace = join(scratch, `bench_1-${randomUUID()}`, 'workspace');
  mkdirSync(join(workspace, SHARED_DIR), { recursive: true });
  writeFileSync(join(workspace, errorReportName('1')), 'ERROR: AddressSanitizer\n');
  const sandbox = factory.create({ task: 'bench:1', contextId: randomUUID(), image: sampleImageTag('1'), workspaceDir: workspace });
  await sandbox.start();
  return sandbox;
}

async function containerOf(docker: Docker, sandbox: Sandbox): Promise<Docker.Container> {
  const [info] = await docker.listContainers({ filters: { name: [sandbox.name] } });
  if (!info) throw new Error(`no container named ${sandbox.name}`);
  return docker.getContainer(info.Id);
}

async function expectTrue(sandbox: Sandbox): Promise<void> {
  const outcome = await sandbox.exec('true');
  if (outcome.kind !== 'ran' || outcome.timedOut !== undefined || outcome.returncode !== 0)
    throw new Error(`true in ${sandbox.name} failed: ${JSON.stringify(outcome)}`);
}

function expectZero(code: number): void {
  if (code !== 0) throw new Error(`dockerode exec of true exited with ${code}`);
}
