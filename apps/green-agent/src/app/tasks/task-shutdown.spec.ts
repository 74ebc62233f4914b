import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_CONTEXT, ownerFilter } from '@arvo-rca/arvo-docker';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { startGreenApp } from '../stage/green-app.testing';
import { greenStage } from '../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../stage/solver-stand-in.testing';

describeWithDocker('green agent shutdown with a task mid-command', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const stage = greenStage('shutdown');
  let tmpDir: string, solver: SolverStandIn;

  beforeAll(async () => {
    tmpDir = stage.scratch();
    solver = await stage.standIn(callingBack(['echo ready', 'sleep 30']));
  });

  async function startGreen(): Promise<NestFastifyApplication> {
    return (await startGreenApp(tmpDir, solver)).app;
  }

  async function untilSleeping(contextId: () => string | undefined): Promise<string> {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const id = contextId();
      const [container] = id ? await docker.listContainers({ filters: { label: [`${LABEL_CONTEXT}=${id}`] } }) : [];
      const top = container ? ((await docker.getContainer(container.Id).top({ ps_args: '-eo pid,args' })) as { Processes?: string[][] }) : undefined;
      if (top?.Processes?.some((row) => /sleep 30$/.test(row.join(' ')))) return container.Id;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the task never got to its `sleep 30`');
  }

  it('ends the task as shut down, removes its container and workspace, and closes in seconds, not when the command ends', async () => {
    const green = await startGreen();
    const owner = green.get<string>(SANDBOX_OWNER, { strict: false });
    const events: PeerEvent[] = [];
    const heard = (async () => {
      for await (const event of clients.peer(solver.greenUrl).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 120_000 })) events.push(event);
    })().catch(() => undefined);
    await untilSleeping(() => solver.runs[0]?.contextId);

    const closing = Date.now();
    await green.close();
    const tookMs = Date.now() - closing;
    await heard;

    expect(tookMs).toBeLessThan(10_000);
    const artifact = events.find((event) => event.kind === 'artifact') as { data: TaskRecordDraft[] } | undefined;
    expect(artifact?.data[0]).toMatchObject({
      finish_reason: 'shutdown',
      run: { commands: 1 },
      metrics: { status: 'interrupted', detail: 'the green agent is shutting down', file_acc: 0 },
    });
    expect(await docker.listContainers({ all: true, filters: ownerFilter(owner) })).toEqual([]);
    expect(readdirSync(join(tmpDir, 'tasks'))).toEqual([]);
  }, 60_000);
});
