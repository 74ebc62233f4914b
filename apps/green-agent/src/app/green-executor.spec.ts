import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { greenStage } from './stage/green-stage.testing';
import type { SolverStandIn } from './stage/solver-stand-in.testing';

describeWithDocker("the green agent's entry: cancels for real, refuses what it cannot cancel, and fails a request it cannot serve", () => {
  const clients = new A2aClientFactory();
  const stage = greenStage('entry');
  let scratch: string, green: NestFastifyApplication, greenUrl: string, solver: SolverStandIn;
  let runDir: string;

  beforeAll(async () => {
    scratch = stage.scratch();
    runDir = join(scratch, 'run');
    mkdirSync(runDir);
    ({ green, greenUrl, solver } = await stage.start([], { LOG_RUN_DIR: runDir }));
  });

  function assessment(taskIds: string[]): string {
    return JSON.stringify({ participants: { purple_agent: solver.agent.url }, config: { task_ids: taskIds } });
  }

  it('ends the running task of a canceled assessment at once, starts no other, tells the solver, and leaves nothing behind', async () => {
    // The solver runs one command, then thinks for ever.
    solver.script = [{ ask: 'execute: echo working' }, { silent: true }];
    const events: PeerEvent[] = [];
    const stream = (async () => {
      for await (const event of clients.peer(greenUrl).streamText(randomUUID(), assessment(['sample:1', 'sample:2']), { deadlineMs: 120_000 }))
        events.push(event);
    })();
    await waitFor(() => events.some((event) => event.kind === 'status' && /step 1: echo working/.test(event.text)), 60_000);
    const taskId = events.find((event) => event.kind === 'task' || event.kind === 'status')?.taskId ?? '';

    const state = await clients.peer(greenUrl).cancel(taskId, { deadlineMs: 30_000 });
    await stream;

    expect(state).toBe('canceled');
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'canceled' });
    // Only the first task ever reached the solver, and its A2A task was canceled there.
    expect(solver.runs).toHaveLength(1);
    await waitFor(() => solver.canceled.length === 1, 10_000);
    const owner = green.get<string>(SANDBOX_OWNER, { strict: false });
    await waitFor(() => readdirSync(join(scratch, 'tasks')).length === 0, 30_000);
    expect(await new Docker().listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
  });

  it('refuses to cancel a request that is no longer running, by name', async () => {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), assessment(['sample:9']), { deadlineMs: 60_000 })) events.push(event);
    const taskId = events.find((event) => event.kind === 'task')?.taskId ?? '';

    await expect(clients.peer(greenUrl).cancel(taskId, { deadlineMs: 30_000 })).rejects.toThrow(/not cancelable/i);
  });

  it('fails a request whose record cannot be written, with the reason, instead of leaving it hanging', async () => {
    solver.script = [{ complete: '[TASK FINISHED]' }];
    rmSync(join(runDir, 'assessments'), { recursive: true, force: true });
    writeFileSync(join(runDir, 'assessments'), 'not a folder');
    try {
      const events: PeerEvent[] = [];
      for await (const event of clients.peer(greenUrl).streamText(randomUUID(), assessment(['sample:1']), { deadlineMs: 120_000 })) events.push(event);

      expect(events.at(-1)).toMatchObject({
        kind: 'status',
        state: 'failed',
        text: expect.stringMatching(/^the green agent failed unexpectedly: .*assessments/),
      });
    } finally {
      rmSync(join(runDir, 'assessments'), { force: true });
    }
  });
});

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
