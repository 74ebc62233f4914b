import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { tarGz } from '../task-assets/archive/tar-fixture.testing';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { greenStage } from '../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../stage/solver-stand-in.testing';

const SAMPLES = join(__dirname, '../../../../../samples');

// A task's container starts while its archive is still being read: an archive refused then must still end
// the task with the archive's own reason, and leave no container and no workspace behind.
describeWithDocker('green agent, a task whose archive is refused while its container starts', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const stage = greenStage('refused');
  const id = 'refused-archive';
  let tmpDir: string, green: NestFastifyApplication, greenUrl: string, solver: SolverStandIn;

  beforeAll(async () => {
    tmpDir = stage.scratch();
    const task = join(tmpDir, 'samples', id);
    mkdirSync(task, { recursive: true });
    copyFileSync(join(SAMPLES, '1', 'error.txt'), join(task, 'error.txt'));
    copyFileSync(join(SAMPLES, '1', 'patch.diff'), join(task, 'patch.diff'));
    // Good entries first, then one that climbs out of the tree.
    writeFileSync(
      join(task, 'repo-vul.tar.gz'),
      tarGz([
        { type: 'Directory', path: 'src-vul/p/' },
        { type: 'File', path: 'src-vul/p/a.c', content: 'int a;\n' },
        { type: 'File', path: 'src-vul/../../escaped.txt', content: 'out' },
      ]),
    );
    await docker.getImage(sampleImageTag('1')).tag({ repo: 'arvo-rca-sample', tag: `${id}-vul` });
    ({ green, greenUrl, solver } = await stage.start(callingBack(['true']), { SAMPLES_DIR: join(tmpDir, 'samples') }));
  });

  afterAll(() =>
    docker
      .getImage(sampleImageTag(id))
      .remove({ noprune: true })
      .catch(() => undefined),
  );

  it("fails the task with the archive's reason, never reaches the solver, and leaves nothing", async () => {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), `Task ID: sample:${id}`, { deadlineMs: 120_000 })) events.push(event);
    const outcome = (events.find((event) => event.kind === 'artifact') as { data: TaskRecordDraft[] }).data[0];

    expect(outcome).toMatchObject({
      finish_reason: 'error',
      run: { commands: 0 },
      metrics: { status: 'failed', detail: expect.stringMatching(/archive refused: .*\.\./), error_code: 'BROKEN_ARCHIVE' },
    });
    expect(solver.runs).toEqual([]);
    const owner = green.get<string>(SANDBOX_OWNER, { strict: false });
    expect(await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
    expect(readdirSync(join(tmpDir, 'tasks'))).toEqual([]);
  });
});
