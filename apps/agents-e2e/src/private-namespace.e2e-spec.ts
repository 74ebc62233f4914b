import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { TaskContainers } from './support/engines/task-containers';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

// The green agent's TMP_DIR becomes a tmpfs of a mount namespace of its own: the host, and so the
// engine, sees the empty folder under it. Then it runs the agent in its place (same pid).
const IN_PRIVATE_TMP_DIR = ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o mode=0700 tmpfs "$TMP_DIR" && exec "$0" "$@"'];

// Generous: the machine may be loaded. The assessment is bound by its own end, not by these.
const SUITE_TIMEOUT_MS = 1_200_000;
const ASSESSMENT_DEADLINE_MS = 1_080_000;

/** What was in TMP_DIR at one moment, as the host sees it and as the green agent does. */
interface TmpDirView {
  host: string[];
  green: string[];
}

/** Whether this process can make a mount namespace of its own and mount a tmpfs in it (root with unshare). */
function privateMountsWork(): string | undefined {
  const target = mkdtempSync(join(tmpdir(), 'arvo-rca-unshare-probe-'));
  try {
    const probe = spawnSync(IN_PRIVATE_TMP_DIR[0], [...IN_PRIVATE_TMP_DIR.slice(1), 'true'], {
      env: { ...process.env, TMP_DIR: target },
      encoding: 'utf8',
      timeout: 10_000,
    });
    if (probe.error) return `unshare cannot run: ${probe.error.message}`;
    return probe.status === 0 ? undefined : `unshare --mount fails here: ${probe.stderr.trim() || `exit ${probe.status}`}`;
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}

/** `describe` for suites that need a private mount namespace: skipped loudly where there is none, a failure under CI=true. */
function describeWithPrivateMounts(name: string, body: () => void): void {
  const why = privateMountsWork();
  if (why === undefined) return describe(name, body);
  if (process.env['CI'] === 'true') {
    return describe(name, () => {
      it('can make a private mount namespace', () => {
        throw new Error(`${why}, and CI=true forbids skipping this suite`);
      });
    });
  }
  console.warn(`SKIPPED, ${why}: ${name}`);
  describe.skip(name, body);
}

describeWithDocker('an assessment whose green agent keeps its TMP_DIR where the engine cannot see it', () => {
  describeWithPrivateMounts('in a private mount namespace, with the baseline model', () => {
    const scratch = new Scratch();
    const containers = new TaskContainers();
    const views: TmpDirView[] = [];
    let green: AgentProcess;
    let purple: AgentProcess;
    let result: AssessmentResult;

    /** TMP_DIR as the host sees it, and as the green agent's mount namespace does (through its /proc root). */
    const look = (): TmpDirView => ({
      host: readdirSync(scratch.tasks),
      green: green.exited ? [] : readdirSync(join(`/proc/${green.child.pid}/root`, scratch.tasks)),
    });

    beforeAll(async () => {
      const [greenPort, purplePort] = [await freePort(), await freePort()];
      const env = {
        ...scratch.env(),
        SANDBOX: 'docker',
        GREEN_AGENT_URL: `http://127.0.0.1:${greenPort}/`,
        PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/`,
      };
      [green, purple] = await Promise.all([
        startAgent('green-agent', env, greenPort, { prefix: IN_PRIVATE_TMP_DIR }),
        startAgent('purple-agent', { ...env, MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' }, purplePort),
      ]);
      const request = { participants: { purple_agent: purple.url }, config: { task_ids: SAMPLES, concurrency: 2 } };
      const events: PeerEvent[] = [];
      // One look at TMP_DIR per thing the assessment reports: each task's start, steps and end.
      for await (const event of new A2aClientFactory()
        .peer(green.url)
        .streamText(randomUUID(), JSON.stringify(request), { deadlineMs: ASSESSMENT_DEADLINE_MS })) {
        events.push(event);
        views.push(look());
      }
      const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result');
      if (artifact?.kind !== 'artifact') throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-3000)}`);
      result = artifact.data[0] as AssessmentResult;
    }, SUITE_TIMEOUT_MS);

    afterAll(async () => {
      await Promise.all([green?.stop('SIGKILL'), purple?.stop('SIGKILL')]);
      await containers.removeOfProcesses([green?.child.pid ?? 0]);
      scratch.remove();
    }, SUITE_TIMEOUT_MS);

    it('runs the green agent on a tmpfs at TMP_DIR that only its own mount namespace has', () => {
      const mounts = readFileSync(`/proc/${green.child.pid}/mountinfo`, 'utf8').split('\n');
      expect(mounts.some((line) => line.split(' ')[4] === scratch.tasks && / - tmpfs /.test(line))).toBe(true);
      const hostMounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
      expect(hostMounts.some((line) => line.split(' ')[4] === scratch.tasks)).toBe(false);
    });

    it('scores every sample, exactly as the baseline scores with a TMP_DIR the engine can see', () => {
      const statuses = Object.fromEntries(Object.entries(result.task_metrics).map(([task, m]) => [task, m.detail ? `${m.status}: ${m.detail}` : m.status]));
      expect(statuses).toEqual(Object.fromEntries(SAMPLES.map((task) => [task, 'scored'])));
      expect(scoresOf(result)).toEqual(BASELINE_SCORES);
      expect(result).toMatchObject({ n_tasks: 5, n_scored: 5 });
    });

    it("kept the tasks' folders in the green agent's view only: the host saw an empty TMP_DIR all along", () => {
      // The green agent did lay out its tasks there, in its own view.
      // Under the folder name of a task with a masked id (MASK_TASK_IDS is on).
      expect(views.some((view) => view.green.some((name) => /^task_masked-[0-9a-f-]{36}$/.test(name)))).toBe(true);
      expect(views.filter((view) => view.host.length > 0)).toEqual([]);
    });

    it('leaves no container on the engine and nothing in TMP_DIR, in either view, and the host view stays empty once it stops', async () => {
      expect(await containers.ofProcess(green.child.pid ?? 0)).toEqual([]);
      expect(look()).toEqual({ host: [], green: [] });
      await green.stop();
      expect(readdirSync(scratch.tasks)).toEqual([]);
      expect(await containers.ofProcess(green.child.pid ?? 0)).toEqual([]);
    });
  });
});
