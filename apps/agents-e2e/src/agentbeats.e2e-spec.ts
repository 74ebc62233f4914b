import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import Docker from 'dockerode';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { combineResults } from '@arvo-rca/rca-eval';
import type { AssessmentResult } from '@arvo-rca/results';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
const SHARDS = 2;

interface ShardRun {
  events: PeerEvent[];
  result: AssessmentResult;
}

/**
 * An assessment the way AgentBeats runs it today: the leaderboard's CI splits it over two green agents,
 * each told its shard and the run's cap (`num_instances`) flat in `config`, with the task config nested
 * under `assessment_config` and a key of its own beside it; the solver is named by the platform's role,
 * `agent`; the purple agent is started without any green URL, so the only way a command reaches a
 * sandbox is as the purple agent's reply to a green agent's message.
 */
describeWithDocker('an assessment split over two green agents, as AgentBeats runs it, with a solver that cannot call back', () => {
  const scratch = new Scratch();
  let greens: AgentProcess[];
  let purple: AgentProcess;
  let runs: ShardRun[];

  beforeAll(async () => {
    const env = { ...scratch.env(), SANDBOX: 'docker' };
    const noKey = { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
    [purple, ...greens] = await Promise.all([
      startAgent('purple-agent', { ...env, ...noKey }, await freePort()),
      ...Array.from({ length: SHARDS }, async () => startAgent('green-agent', env, await freePort())),
    ]);
    runs = await Promise.all(greens.map((green, index) => assessShard(green, index)));
  });

  afterAll(async () => {
    await Promise.all([purple?.stop(), ...(greens ?? []).map((green) => green.stop())]);
    scratch.remove();
  });

  async function assessShard(green: AgentProcess, index: number): Promise<ShardRun> {
    const request = {
      participants: { agent: purple.url },
      config: {
        assessment_config: { task_ids: SAMPLES, concurrency: 2 },
        shard_index: index,
        num_shards: SHARDS,
        num_instances: SAMPLES.length,
        gateway_run: 'run-1',
      },
    };
    const events: PeerEvent[] = [];
    for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
      events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
    if (!artifact) throw new Error(`shard ${index}: no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}`);
    return { events, result: artifact.data[0] };
  }

  it('gives task i of the list to shard i mod 2, and each Result says which shard and tasks it covers', () => {
    expect(runs.map((run) => run.result.shard)).toEqual([
      { index: 0, count: 2 },
      { index: 1, count: 2 },
    ]);
    expect(runs.map((run) => run.result.task_ids)).toEqual([
      ['sample:1', 'sample:3', 'sample:5'],
      ['sample:2', 'sample:4'],
    ]);
  });

  it('scores every task exactly once across the two Results, with the usage the solver reported', () => {
    const scored = runs.flatMap((run) => Object.keys(run.result.task_metrics));
    expect(scored.sort()).toEqual(SAMPLES);
    for (const metrics of runs.flatMap((run) => Object.values(run.result.task_metrics))) {
      expect(metrics).toMatchObject({ status: 'scored', solver_exit_status: 'Submitted' });
      expect(metrics.llm_requests).toBeGreaterThan(0);
      expect(metrics.n_commands).toBeGreaterThan(0);
    }
    expect(scoresOf(combineResults(runs.map((run) => run.result)))).toEqual(BASELINE_SCORES);
  });

  it('names the config key it does not use in its first status line, and only that one (num_instances is used)', () => {
    for (const run of runs) {
      const first = run.events.find((event) => event.kind === 'status' && event.text);
      expect(first).toMatchObject({ text: expect.stringMatching(/ignoring config keys: gateway_run$/) });
    }
  });

  it('ran every command through the replies of a purple agent that knew no green URL', () => {
    expect(purple.log).toMatch(/replying to the green agent/);
    expect(purple.log).not.toMatch(/calling back/);
  });

  it('leaves no container and no workspace behind on either green agent', async () => {
    const containers = await new Docker().listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
    for (const green of greens) expect(containers.filter((container) => container.Labels[LABEL_OWNER]?.includes(`:${green.child.pid}:`))).toEqual([]);
    expect(readdirSync(scratch.tasks)).toEqual([]);
  });
});
