import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { EchoExecutor, rejectionOf, startTestAgent } from '@arvo-rca/a2a-protocol/testing';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { runAssessmentAsGateway } from './support/a2a/gateway-a2a-client';

// Requests the green agent must refuse where they arrive: each problem named in one answer, a task that
// ends `rejected` at once (never a bare message, which leaves AgentBeats' gateway with no status and its
// leaderboard polling for hours), and nothing started (no workspace, no container, nothing handed to the
// solver).
describeWithDocker('bad requests to the green agent as a real process', () => {
  const scratch = new Scratch();
  const agents: AgentProcess[] = [];
  let green: AgentProcess;
  let purple: AgentProcess;

  beforeAll(async () => {
    purple = await startAgent('purple-agent', { ...scratch.env(), MODEL: 'baseline' });
    green = await startAgent('green-agent', { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: purple.url });
    agents.push(purple, green);
  });

  afterAll(async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    scratch.remove();
  });

  afterEach(async () => {
    expect(readdirSync(scratch.tasks)).toEqual([]);
    expect(existsSync(join(scratch.runDir, 'trajectories')) ? readdirSync(join(scratch.runDir, 'trajectories')) : []).toEqual([]);
    const containers = await new Docker().listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
    expect(containers.filter((container) => container.Labels[LABEL_OWNER]?.includes(`:${green.child.pid}:`))).toEqual([]);
  });

  async function send(text: string): Promise<PeerEvent[]> {
    const events: PeerEvent[] = [];
    for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), text, { deadlineMs: 30_000 })) events.push(event);
    return events;
  }

  /** The reason of a refused request: its task ends `rejected` at once, with the problems named. */
  async function refusal(request: string | object): Promise<string> {
    return rejectionOf(await send(typeof request === 'string' ? request : JSON.stringify(request)));
  }

  it('ends a bad request rejected within seconds for a client that reads it as the AgentBeats gateway does', async () => {
    const started = Date.now();

    const output = await runAssessmentAsGateway(green.url, { participants: { agent: purple.url }, config: { task_ids: ['foo:1'], num_instances: 0 } });

    expect(output).toEqual({ status: 'rejected', results: [] });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('leaves the gateway-shaped client with status null for a bare message, as the gateway does: what a refusal sent as a message would cost', async () => {
    const echo = await startTestAgent({ executor: EchoExecutor });
    try {
      expect(await runAssessmentAsGateway(echo.url, 'message: refused')).toEqual({ status: null, results: [] });
    } finally {
      await echo.close();
    }
  });

  it('rejects text it does not understand, and a request that names the solver under both roles', async () => {
    expect(await refusal('hello')).toMatch(/^Request not understood, nothing was started: send "Task ID: <source>:<id>"/);
    expect(await refusal({ participants: { agent: purple.url, purple_agent: purple.url }, config: { task_ids: ['sample:1'] } })).toBe(
      'Invalid assessment request, nothing was started:\n- participants names the solver twice, as agent and purple_agent: name it once',
    );
  });

  it('rejects an assessment with bad shard values and ids of no source or no valid form, naming each', async () => {
    const text = await refusal({
      participants: { purple_agent: purple.url },
      config: { task_ids: ['sample:1', 'foo:1', 'arvo:1.2'], shard_index: -1, num_shards: 1.5 },
    });

    expect(text.split('\n')).toEqual([
      'Invalid assessment request, nothing was started:',
      '- config.shard_index must not be negative',
      '- config.num_shards must be a whole number',
      '- config.task_ids[1]: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
      '- config.task_ids[2]: invalid task id "arvo:1.2": the id may hold only letters, digits, "_" and "-"; expected <source>:<id> such as arvo:14368',
    ]);
  });

  it("rejects a shard index that is not below the shard count, as a leaderboard's CI writes it flat beside a nested config", async () => {
    const text = await refusal({
      participants: { agent: purple.url },
      config: { assessment_config: { task_ids: ['sample:1', 'sample:2'] }, shard_index: 2, num_shards: 2 },
    });

    expect(text).toBe('Invalid assessment request, nothing was started:\n- config.shard_index (2) must be below config.num_shards (2)');
  });

  it('rejects a plain task request naming no configured source, or an id no source could hold', async () => {
    expect(await refusal('Task ID: foo:1')).toBe(
      'Invalid task request, nothing was started: unknown task source "foo" in task id "foo:1" (known sources: arvo, sample)',
    );
    expect(await refusal('Task ID: arvo:1.2')).toMatch(/^Invalid task request, nothing was started: invalid task id "arvo:1\.2"/);
  });
});
