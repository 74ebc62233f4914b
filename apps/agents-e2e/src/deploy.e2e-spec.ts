import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, AGENT_CARD_PATH, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { scanRecord } from '@arvo-rca/run-record';
import { AssessRunner } from './support/processes/assess-runner';
import { buildDeployImages, ComposeStack } from './support/processes/compose-stack';
import { readResult } from './support/records/run-records';
import { ViewerProcess } from './support/viewer/viewer-process';

const LABEL_OWNER = 'arvo-rca.owner';
const NODE_USER = 1000;
// The Node base is about 220 MB; bundle, samples and pruned production dependencies add some 35 MB.
// Development dependencies (nx, typescript, jest, swc) would add hundreds.
const IMAGE_BUDGET_BYTES = 300e6;
const DEV_PACKAGES = ['nx', 'typescript', 'jest', '@swc', 'webpack', 'eslint', '@nestjs/testing'];
// The runner's line for a record it keeps as the green agent writes it elsewhere (here, in its container's volume).
const KEPT_LINE = /^record: {2}(\S+) \(kept here as the green agent at \S+ writes it in (\S+)\)$/;
// The images' tag: DEPLOY_IMAGE_TAG, so that two checkouts testing on one engine do not rebuild each other's.
const IMAGE_TAG = process.env['DEPLOY_IMAGE_TAG'] || 'e2e';

// sample:1's fix changes index_span in src/index.c (a length bound off by the header size), while the
// crash happens in tlv_cursor_be32 in src/cursor.c. The default baseline model names the three project
// frames of the crash stack (cursor.c, value.c, doc.c), so none of its three predictions shares a file
// with the one ground-truth hunk: every score is 0, and the task still counts as scored.
const SAMPLE_1_BASELINE_METRICS = {
  status: 'scored',
  n_gt: 1,
  n_pred: 3,
  file_acc: 0,
  func_recall: 0,
  func_precision: 0,
  line_iou: 0,
  line_proximity: 0,
  func_topk_recall: { '1': 0, '3': 0, '5': 0 },
  line_topk_recall: { '1': 0, '3': 0, '5': 0 },
  solver_exit_status: 'Submitted',
};

describeWithDocker('deploy: the two agent images in docker compose', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const owner = `deploy-e2e-${process.pid}-${randomUUID().slice(0, 8)}`;
  let images: { green: string; purple: string };
  let stack: ComposeStack | undefined;
  // The green agent's container hostname: the host part of its task containers' owner label.
  let greenHost: string | undefined;

  beforeAll(async () => {
    images = buildDeployImages(IMAGE_TAG);
    stack = new ComposeStack({
      greenImage: images.green,
      purpleImage: images.purple,
      greenPort: await freePort(),
      purplePort: await freePort(),
      owner,
      env: { MODEL: 'baseline' },
    });
    stack.up();
    await stack.waitHealthy(['green-agent', 'purple-agent']);
    greenHost = await stack.hostname('green-agent');
  }, 20 * 60_000);

  afterAll(async () => {
    try {
      stack?.down();
    } finally {
      stack?.removeFiles();
      // Task containers of this stack's green agent, should a failed test have left one.
      if (greenHost) {
        for (const id of await taskContainersOf(docker, greenHost))
          await docker
            .getContainer(id)
            .remove({ force: true, v: true })
            .catch(() => undefined);
      }
    }
  }, 120_000);

  function running(): ComposeStack {
    if (!stack) throw new Error('the compose stack did not start');
    return stack;
  }

  it('builds both images with production dependencies only, within the size budget', async () => {
    for (const image of [images.green, images.purple]) {
      const info = await docker.getImage(image).inspect();
      expect(info.Size).toBeLessThan(IMAGE_BUDGET_BYTES);
    }
    const installed = (service: 'green-agent' | 'purple-agent'): string[] =>
      running().exec(service, 'ls /app/node_modules /app/node_modules/@nestjs').split(/\s+/);
    const [green, purple] = [installed('green-agent'), installed('purple-agent')];
    // The judge's parser and grammars go with the green agent only: the purple agent never parses code, and
    // it takes the loc.json format from its own lib, not from the judge's.
    expect(green).toEqual(expect.arrayContaining(['@nestjs', 'web-tree-sitter', 'tree-sitter-c', 'tree-sitter-cpp']));
    expect(purple).toEqual(expect.arrayContaining(['@nestjs']));
    expect(purple.filter((name) => name.includes('tree-sitter'))).toEqual([]);
    for (const packages of [green, purple]) expect(DEV_PACKAGES.filter((name) => packages.includes(name.split('/').pop() ?? name))).toEqual([]);
  });

  it('starts both agents healthy, each announcing the URL that the other and this host use', async () => {
    const stack = running();
    expect([await stack.health('green-agent'), await stack.health('purple-agent')]).toEqual(['healthy', 'healthy']);
    const cardOf = async (url: string): Promise<unknown> => (await fetch(new URL(AGENT_CARD_PATH, url))).json();
    expect(await cardOf(stack.greenUrl)).toMatchObject({ name: 'arvo-rca green agent', url: stack.greenUrl });
    expect(await cardOf(stack.purpleUrl)).toMatchObject({ name: 'arvo-rca purple agent', url: stack.purpleUrl });
  });

  it('runs the green agent as node with the Docker socket group, and the purple agent as node', async () => {
    const stack = running();
    const socketGroup = statSync('/var/run/docker.sock').gid;
    expect(stack.agentIdentity('green-agent')).toEqual({
      uid: [NODE_USER, NODE_USER, NODE_USER, NODE_USER],
      gid: [NODE_USER, NODE_USER, NODE_USER, NODE_USER],
      groups: [...new Set([socketGroup, NODE_USER])].sort((a, b) => a - b),
    });
    expect(stack.agentIdentity('purple-agent')).toEqual({
      uid: [NODE_USER, NODE_USER, NODE_USER, NODE_USER],
      gid: [NODE_USER, NODE_USER, NODE_USER, NODE_USER],
      groups: [NODE_USER],
    });
    expect((await docker.getImage(images.purple).inspect()).Config.User).toBe('node');
  });

  it('scores sample:1 sent as a plain task request to the composed green agent', async () => {
    const stack = running();
    const events = await collect(clients.peer(stack.greenUrl).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 240_000 }));
    const result = resultOf(events);
    expect(result).toMatchObject({ task: 'sample:1', finish_reason: 'finished' });
    // The judge's record, beside the usage the solver reported on its final reply (the baseline calls no API).
    expect(result.metrics).toMatchObject(SAMPLE_1_BASELINE_METRICS);
    expect(result.metrics).toMatchObject({ input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_creation_tokens: 0, est_usd_cost: 0 });
    expect(result.metrics['llm_requests']).toBeGreaterThan(0);
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });

    // Both agents log into the one run directory on the shared volume: the one that the first of them
    // recorded in /logs/.current_run, holding both agents' lines and the purple agent's trajectory.
    const run = (JSON.parse(stack.exec('green-agent', 'cat /logs/.current_run')) as { run: string }).run;
    const agentsLog = stack.exec('purple-agent', `cat /logs/${run}/agents.log`);
    expect(agentsLog).toMatch(/^\S+ +INFO +green /m);
    expect(agentsLog).toMatch(/^\S+ +INFO +purple /m);
    const trajectory = `/logs/${run}/trajectories/sample_1-${result.context_id}.traj.json`;
    expect(stack.exec('green-agent', `test -f '${trajectory}' && echo present`).trim()).toBe('present');
  });

  it("keeps what `npm run assess -- --green` got in the runner's own run directory, the Result and the record file for file, and the viewer shows the run", async () => {
    const stack = running();
    const logs = mkdtempSync(join(tmpdir(), 'arvo-rca-deploy-runner-'));
    try {
      const runDir = join(logs, 'log_runner');
      const runner = await AssessRunner.run(['--tasks', 'sample:1,sample:3', '--green', stack.greenUrl, '--purple', stack.purpleUrl], { LOG_RUN_DIR: runDir });

      expect(runner.code).toBe(0);
      const [, local, remote] = KEPT_LINE.exec(runner.lines.find((line) => KEPT_LINE.test(line)) ?? '') ?? [];
      expect(local).toMatch(new RegExp(`^${runDir}/assessments/`));
      expect(remote).toMatch(/^\/logs\/log_[^/]+\/assessments\//);
      expect(runner.lines).toContain(`results: ${join(local, 'result.json')}`);
      expect(readResult(join(local, 'result.json'))).toMatchObject({ n_tasks: 2, n_scored: 2 });
      const scan = await scanRecord(local);
      expect([[...scan.done.keys()], scan.missing, scan.damaged]).toEqual([['sample:1', 'sample:3'], [], []]);
      // Every file of the record, the same bytes on the host as in the green agent's volume.
      const digests = `cd '%s' && find . -type f | sort | xargs sha256sum`;
      const here = spawnSync('sh', ['-c', digests.replace('%s', local)], { encoding: 'utf8' }).stdout;
      expect(here).toMatch(/\.\/tasks\/sample_3\/trajectory\.json\n/);
      expect(here).toBe(stack.exec('green-agent', digests.replace('%s', remote)));

      const viewer = await ViewerProcess.start([logs]);
      try {
        const { runs } = (await (await fetch(new URL('api/runs', viewer.url))).json()) as { runs: { id: string; recorded: number; scored: number }[] };
        expect(runs).toEqual([expect.objectContaining({ id: scan.assessment.id, recorded: 2, scored: 2 })]);
        const page = (await (await fetch(new URL(`api/runs/${scan.assessment.id}/tasks/sample:3`, viewer.url))).json()) as Record<string, unknown>;
        expect(page).toMatchObject({ trajectory: 'present', log: 'missing', metrics: { status: 'scored' } });
      } finally {
        await viewer.stop();
      }
    } finally {
      rmSync(logs, { recursive: true, force: true });
    }
  });

  it("copies the workspace into the task container (no mount of the green agent's disk), and leaves no task container behind after docker compose down", async () => {
    const stack = running();
    const host = greenHost ?? '';
    const started = new Deferred();
    const events: PeerEvent[] = [];
    const consumed = (async () => {
      for await (const event of clients.peer(stack.greenUrl).streamText(randomUUID(), 'Task ID: sample:2', { deadlineMs: 240_000 })) {
        events.push(event);
        if (event.kind === 'status' && /^sandbox \S+ started/m.test(event.text)) started.resolve();
      }
    })().catch(() => undefined); // the stream may break when the stack goes down
    await Promise.race([
      started.promise,
      consumed.then(() => Promise.reject(new Error(`the task ended before its sandbox started: ${JSON.stringify(events)}`))),
    ]);

    const [container] = await taskContainersOf(docker, host);
    expect((await docker.getContainer(container).inspect()).Mounts).toEqual([]);
    stack.down();
    await consumed;

    expect(await taskContainersOf(docker, host)).toEqual([]);
  });
});

async function collect(stream: AsyncIterable<PeerEvent>): Promise<PeerEvent[]> {
  const events: PeerEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

function resultOf(events: PeerEvent[]): TaskRecordDraft {
  const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result');
  if (artifact?.kind !== 'artifact') throw new Error(`no Result artifact among ${JSON.stringify(events)}`);
  return artifact.data[0] as TaskRecordDraft;
}

// Task containers are labelled with their green agent's owner id, `<hostname>@<table key>:<pid>:<start>:<nonce>`.
async function taskContainersOf(docker: Docker, host: string): Promise<string[]> {
  const all = await docker.listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
  return all.filter((info) => (info.Labels[LABEL_OWNER] ?? '').startsWith(`${host}@`)).map((info) => info.Id);
}

class Deferred {
  resolve: () => void = () => undefined;
  readonly promise = new Promise<void>((resolve) => (this.resolve = resolve));
}
