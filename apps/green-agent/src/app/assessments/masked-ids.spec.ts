import { randomUUID } from 'node:crypto';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, parseAssessmentSaved, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult, TaskRecord } from '@arvo-rca/results';
import { RecordLayout } from '@arvo-rca/run-record';
import { startGreenApp } from '../stage/green-app.testing';
import { greenStage } from '../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../stage/solver-stand-in.testing';

// An ARVO id no other text here holds by chance: the case is sample 1's files and image under it.
const ARVO_ID = '7350917';
const SAMPLE_1 = join(__dirname, '../../../../../samples/1');

// What a curious solver looks at: the workspace, the report, where it is, its environment, its process.
const LOOKING_AROUND = [
  'pwd; ls -la /workspace /workspace/shared',
  'head -c 400 /workspace/error.txt',
  'env | sort',
  'hostname; cat /etc/hostname /etc/hosts',
  'cat /proc/1/cmdline | tr "\\0" " "; cat /proc/self/cgroup',
  'ls /src 2>&1 | head',
];

describeWithDocker('green agent, task ids hidden from the solver', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const stage = greenStage('masked');
  const image = `n132/arvo:${ARVO_ID}-vul`;
  let tmpDir: string, greenUrl: string, solver: SolverStandIn;

  beforeAll(async () => {
    tmpDir = stage.scratch();
    cpSync(SAMPLE_1, join(tmpDir, 'arvo', ARVO_ID), { recursive: true });
    await docker.getImage(sampleImageTag('1')).tag({ repo: 'n132/arvo', tag: `${ARVO_ID}-vul` });
    ({ greenUrl, solver } = await stage.start(callingBack(LOOKING_AROUND), { ARVO_DATA_URL: join(tmpDir, 'arvo') }));
  });

  afterAll(() =>
    docker
      .getImage(image)
      .remove({ noprune: true })
      .catch(() => undefined),
  );

  async function assess(config: Record<string, unknown>): Promise<PeerEvent[]> {
    const events: PeerEvent[] = [];
    const request = JSON.stringify({ participants: { purple_agent: solver.agent.url }, config });
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), request, { deadlineMs: 180_000 })) events.push(event);
    return events;
  }

  it('gives the solver a masked id and file names that tell nothing of the task: nothing it receives holds the ARVO id', async () => {
    const events = await assess({ task_ids: [`arvo:${ARVO_ID}`] });

    const [run] = solver.runs;
    const received = [...run.received, ...run.answers].join('\n');
    // An answer to each command, and one to [TASK FINISHED].
    expect(run.answers).toHaveLength(LOOKING_AROUND.length + 1);
    expect(received).toMatch(/Task ID: task:[0-9a-f]{8}\n/);
    expect(received).toContain('/workspace/error.txt');
    expect(received).toContain('AddressSanitizer');
    expect(received).not.toContain(ARVO_ID);
    expect(received).not.toMatch(/arvo:/);
    // The record keeps which case the masked id was, and the Result names the case.
    const recordDir = parseAssessmentSaved((events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
    const task = JSON.parse(readFileSync(new RecordLayout(recordDir).taskFile(`arvo:${ARVO_ID}`), 'utf8')) as TaskRecord;
    expect(task.masked_id).toBe(/Task ID: (task:[0-9a-f]{8})/.exec(received)?.[1]);
    const result = (events.find((event) => event.kind === 'artifact') as { data: AssessmentResult[] }).data[0];
    expect(Object.keys(result.task_metrics)).toEqual([`arvo:${ARVO_ID}`]);
    expect(result.task_metrics[`arvo:${ARVO_ID}`].masked_id).toBe(task.masked_id);
  }, 180_000);

  it('gives the real id and the original file names with masking off', async () => {
    const unmasked = await startGreenApp(tmpDir, solver, { ARVO_DATA_URL: join(tmpDir, 'arvo'), MASK_TASK_IDS: 'off' });
    solver.runs = [];
    try {
      const events: PeerEvent[] = [];
      const request = JSON.stringify({ participants: { purple_agent: solver.agent.url }, config: { task_ids: [`arvo:${ARVO_ID}`] } });
      for await (const event of clients.peer(unmasked.url).streamText(randomUUID(), request, { deadlineMs: 180_000 })) events.push(event);

      const [description] = solver.runs[0].received;
      expect(description).toContain(`Task ID: arvo:${ARVO_ID}`);
      expect(description).toContain(`/workspace/${ARVO_ID}_error.txt`);
    } finally {
      solver.greenUrl = greenUrl;
      await unmasked.app.close();
    }
  }, 180_000);
});
