import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { currentOwner, formatOwnerId } from '@arvo-rca/sandbox';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { ProcessTable } from '@arvo-rca/common';
import type { AssessmentResult } from '@arvo-rca/results';
import { startAgent, type AgentProcess, type Scratch } from '../processes/agent-processes';
import type { GatewayStandIn } from './gateway-stand-in';

const NO_KEY = { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };

export interface Assessed {
  green: AgentProcess;
  purple: AgentProcess;
  result: AssessmentResult;
}

/** Both agents as real processes; the green reaches the engine only through the stand-in, the no-key baseline solves. */
export async function assessThrough(gateway: GatewayStandIn, scratch: Scratch, taskIds: string[]): Promise<Assessed> {
  const env = { ...scratch.env(), SANDBOX: 'docker' };
  const [green, purple] = await Promise.all([
    startAgent('green-agent', { ...env, DOCKER_HOST: gateway.dockerHost }, await freePort()),
    startAgent('purple-agent', { ...env, ...NO_KEY }, await freePort()),
  ]);
  const request = { participants: { purple_agent: purple.url }, config: { task_ids: taskIds, concurrency: 2 } };
  const events: PeerEvent[] = [];
  for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
    events.push(event);
  const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
  if (!artifact) throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-3000)}`);
  return { green, purple, result: artifact.data[0] };
}

/** Containers labelled with `ownerPart` (a pid as `:<pid>:`, or a whole owner id), seen on the engine itself. */
export async function containersLabelled(gateway: GatewayStandIn, ownerPart: string): Promise<string[]> {
  const all = await gateway.engine().listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
  return all.filter((info) => info.Labels[LABEL_OWNER]?.includes(ownerPart)).map((info) => info.Id);
}

export async function removeOnEngine(gateway: GatewayStandIn, ids: string[]): Promise<void> {
  const engine = gateway.engine();
  await Promise.all(
    ids.map((id) =>
      engine
        .getContainer(id)
        .remove({ force: true, v: true })
        .catch(() => undefined),
    ),
  );
}

/** The owner id of a process of this host that has exited: what a crashed assessor leaves on its containers. */
export function deadOwnerId(): string {
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return formatOwnerId({ ...currentOwner(new ProcessTable()), pid: Number(exited.stdout) });
}

/** A running container of a crashed assessor, made through the stand-in (so the gateway counts it as the caller's). */
export async function plantDeadOwnersContainer(gateway: GatewayStandIn, owner: string): Promise<string> {
  const docker = new Docker({ socketPath: gateway.dockerHost.slice('unix://'.length) });
  const container = await docker.createContainer({
    Image: sampleImageTag('1'),
    Cmd: ['sleep', '300'],
    Labels: { [LABEL_OWNER]: owner },
    HostConfig: { NetworkMode: 'none', Init: true },
  });
  await container.start();
  return container.id;
}

/** A task folder untouched for a day: any booting green agent reaps it as stale. */
export function plantStaleTaskFolder(scratch: Scratch): string {
  const folder = join(scratch.tasks, `sample_1-${randomUUID()}`);
  mkdirSync(join(folder, 'workspace'), { recursive: true });
  const dayAgo = new Date(Date.now() - 86_400_000);
  utimesSync(folder, dayAgo, dayAgo);
  return folder;
}
