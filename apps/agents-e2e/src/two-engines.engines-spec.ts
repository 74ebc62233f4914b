import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Docker from 'dockerode';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER, LABEL_TASK } from '@arvo-rca/arvo-docker';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult } from '@arvo-rca/results';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import { ROOT, Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { startBusySolver, type BusySolver } from './support/stand-ins/busy-solver';
import { TlsEngine } from './support/engines/tls-engine';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
// The local green agent gets no engine address: the socket, as on a machine of its own.
const LOCAL_ENGINE = { DOCKER_HOST: undefined, DOCKER_TLS_VERIFY: undefined, DOCKER_CERT_PATH: undefined };

/** Which tasks an engine created containers for since `since` (epoch s), for owners matching `owner`. */
async function tasksCreatedOn(docker: Docker, since: number, owner: RegExp): Promise<string[]> {
  const stream = (await docker.getEvents({
    since,
    until: Math.ceil(Date.now() / 1000),
    filters: { type: ['container'], event: ['create'] },
  })) as NodeJS.ReadableStream;
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { Actor: { Attributes: Record<string, string> } }).Actor.Attributes)
    .filter((labels) => owner.test(labels[LABEL_OWNER] ?? ''))
    .map((labels) => labels[LABEL_TASK])
    .sort();
}

/** `npm run assess -- --green URL1,URL2 --purple URL`, as a process; its combined Result. */
async function runAssess(greens: AgentProcess[], purple: AgentProcess, scratch: Scratch): Promise<{ result: AssessmentResult; output: string }> {
  const args = [
    '--tsconfig',
    'tools/tsconfig.json',
    'tools/assess/assess.ts',
    '--tasks',
    SAMPLES.join(','),
    '--green',
    greens.map((green) => green.url).join(','),
    '--purple',
    purple.url,
    '--concurrency',
    '2',
  ];
  const child = spawn(`${ROOT}/node_modules/.bin/tsx`, args, {
    cwd: ROOT,
    env: { ...process.env, ...scratch.env(), CI: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const file = /^results: (.+)$/m.exec(output)?.[1];
  if (code !== 0 || !file) throw new Error(`assess exited with ${code}:\n${output}`);
  return { result: JSON.parse(readFileSync(file, 'utf8')) as AssessmentResult, output };
}

/**
 * Two machines, each with its engine: one green agent on the local engine, one on a second engine over
 * TCP with TLS (a dockerd this suite starts, with certificates it generates), and the runner spreading
 * one task list over both. Then the second engine stops answering mid-task.
 */
describeWithDocker('two green agents on two engines, one remote over TLS', () => {
  const local = new Scratch();
  const remote = new Scratch();
  const runner = new Scratch();
  const agents: AgentProcess[] = [];
  let engine: TlsEngine | undefined;
  let solver: BusySolver | undefined;

  beforeAll(async () => {
    engine = await TlsEngine.up(['debian:bookworm-slim', ...SAMPLES.map((id) => sampleImageTag(id.split(':')[1]))]);
  }, 240_000);

  afterAll(async () => {
    engine?.resume();
    await Promise.all(agents.map((agent) => agent.stop('SIGTERM')));
    await solver?.close();
    await engine?.down();
    for (const scratch of [local, remote, runner]) scratch.remove();
  }, 120_000);

  function tls(): TlsEngine {
    if (!engine) throw new Error('the TLS engine did not come up');
    return engine;
  }

  async function start(name: 'green-agent' | 'purple-agent', env: NodeJS.ProcessEnv): Promise<AgentProcess> {
    const agent = await startAgent(name, env);
    agents.push(agent);
    return agent;
  }

  it('scores every sample exactly once with the runner spreading the list over both, each shard on its own engine', async () => {
    const since = Math.floor(Date.now() / 1000) - 1;
    const noKey = { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' };
    const purple = await start('purple-agent', { ...runner.env(), ...noKey });
    const onLocal = await start('green-agent', { ...local.env(), ...LOCAL_ENGINE, SANDBOX: 'docker', PURPLE_AGENT_URL: purple.url });
    const onRemote = await start('green-agent', { ...remote.env(), ...engine?.env, SANDBOX: 'docker', PURPLE_AGENT_URL: purple.url });

    const { result, output } = await runAssess([onLocal, onRemote], purple, runner);

    expect(Object.keys(result.task_metrics).sort()).toEqual(SAMPLES);
    expect(scoresOf(result)).toEqual(BASELINE_SCORES);
    expect(output).toMatch(/shard 0 of 2/);
    // Shard i holds tasks i, i + 2, ...: the local engine ran 1, 3, 5 and the remote one 2 and 4.
    expect(await tasksCreatedOn(new Docker(), since, new RegExp(`:${onLocal.child.pid}:`))).toEqual(['sample:1', 'sample:3', 'sample:5']);
    expect(await tasksCreatedOn(tls().client(), since, new RegExp(`:${onRemote.child.pid}:`))).toEqual(['sample:2', 'sample:4']);
    expect(
      await tls()
        .client()
        .listContainers({ all: true, filters: { label: [LABEL_OWNER] } }),
    ).toEqual([]);
  }, 280_000);

  it('fails the task whose engine stops answering, with the reason, and keeps serving', async () => {
    solver = await startBusySolver();
    const green = await start('green-agent', { ...remote.env(), ...engine?.env, SANDBOX: 'docker', PURPLE_AGENT_URL: solver.agent.url });
    solver.greenUrl = green.url;
    const busy = solver.nextBusy();
    const heard = collect(new A2aClientFactory().peer(green.url).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 250_000 }));
    await busy; // `sleep 30` is on its way to the task's container
    await new Promise((resolve) => setTimeout(resolve, 2000));

    tls().pause();
    try {
      await waitFor(() => /stopped answering/.test(green.log), 150_000);
    } finally {
      tls().resume();
    }

    const events = await heard;
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: 'status', state: 'failed' });
    const result = events.find((event) => event.kind === 'artifact' && event.name === 'Result');
    expect(JSON.stringify(result)).toMatch(/the Docker engine at tcp:\/\/127\.0\.0\.1:\d+ stopped answering/);
    // The assessor goes on: it still answers, and nothing of the failed task is left on the engine.
    const card = await fetch(new URL('.well-known/agent-card.json', green.url));
    expect(card.ok).toBe(true);
    expect(green.exited).toBe(false);
    await waitFor(
      async () =>
        (
          await tls()
            .client()
            .listContainers({ all: true, filters: { label: [LABEL_OWNER] } })
        ).length === 0,
      60_000,
    );
  }, 280_000);
});

async function collect(stream: AsyncIterable<PeerEvent>): Promise<PeerEvent[]> {
  const events: PeerEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
  } catch (error) {
    events.push({ kind: 'status', taskId: '', contextId: '', state: 'failed', text: `stream broke: ${(error as Error).message}`, data: [] });
  }
  return events;
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`not within ${timeoutMs} ms`);
}
