import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, parseCommandResult, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER, SANDBOX_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { AppModule } from '../app.module';
import type { TaskOutcome } from './task-context.service';
import { startSolverStandIn, type SolverScript, type SolverStandIn } from './solver-stand-in.testing';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', 'samples');

// The answer to sample:1: the hunk of its fix, in the function the fix changes.
const SAMPLE_1_ANSWER = JSON.stringify({
  reasoning: 'the length bound of a record ignores its header',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'bound off by the header' }],
});

const SOLVING: SolverScript = {
  commands: () => [
    'ls /workspace/src-vul',
    'test -e /src/tlvkit/.git; echo git=$?',
    'echo Task ID: arvo:123',
    `cat > /workspace/shared/loc.json <<'EOF'\n${SAMPLE_1_ANSWER}\nEOF`,
  ],
};

describeWithDocker('green agent, tasks against solver stand-ins', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const saved = { ...process.env };
  let tmpDir: string;
  let green: NestFastifyApplication;
  let greenUrl: string;
  let owner: string;
  let solver: SolverStandIn;

  beforeAll(async () => {
    tmpDir = mkdtempSync(join(tmpdir(), 'arvo-rca-green-'));
    mkdirSync(join(tmpDir, 'tasks'));
    // The card names the port, and clients follow the card: the port is chosen before boot.
    const port = await freePort();
    Object.assign(process.env, {
      PORT: String(port),
      SANDBOX: 'docker',
      TMP_DIR: join(tmpDir, 'tasks'),
      CACHE_DIR: join(tmpDir, 'cache'),
      SAMPLES_DIR,
      LOG_DIR: join(tmpDir, 'logs'),
      TASK_TIMEOUT_S: '120',
    });
    solver = await startSolverStandIn(SOLVING);
    process.env['PURPLE_AGENT_URL'] = solver.agent.url;
    green = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), new FastifyAdapter(), { logger: false, abortOnError: false });
    await green.listen(port, '127.0.0.1');
    greenUrl = `http://127.0.0.1:${port}/`;
    solver.greenUrl = greenUrl;
    owner = green.get<string>(SANDBOX_OWNER, { strict: false });
  });

  afterAll(async () => {
    await green?.close();
    await solver?.agent.close();
    rmSync(tmpDir, { recursive: true, force: true });
    process.env = { ...saved };
  });

  afterEach(async () => {
    // Every path leaves nothing: no container of this instance, no workspace.
    expect(await docker.listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
    expect(readdirSync(join(tmpDir, 'tasks'))).toEqual([]);
  });

  beforeEach(() => {
    solver.runs.length = 0;
    solver.script = SOLVING;
  });

  async function runTask(task: string): Promise<{ outcome: TaskOutcome; events: PeerEvent[] }> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), `Task ID: ${task}`, { deadlineMs: 120_000 })) events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact');
    return { outcome: (artifact as { data: TaskOutcome[] }).data[0], events };
  }

  it('runs a task: commands run in the task container, loc.json is scored, everything is removed', async () => {
    const { outcome, events } = await runTask('sample:1');

    const [run] = solver.runs;
    expect(run.description).toContain('Root-cause analysis task sample:1');
    expect(run.description).toContain('ERROR: AddressSanitizer: heap-buffer-overflow');
    expect(parseCommandResult(run.replies[0])).toEqual({ returncode: 0, output: 'tlvkit\n' });
    expect(parseCommandResult(run.replies[1])?.output).toBe('git=1\n');
    // A live task's message is never read as a new task, whatever it says.
    expect(parseCommandResult(run.replies[2])?.output).toBe('Task ID: arvo:123\n');
    expect(run.finishedReply).toMatch(/^\[TASK COMPLETED\] Commands executed: 4, Failed: 0, Time: [\d.]+s$/);
    expect(outcome).toMatchObject({ taskKey: 'sample:1', finishReason: 'finished', commands: 4, metrics: { status: 'scored', file_acc: 1, func_recall: 1 } });
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
  });

  it('finishes a task whose solver dies mid-task, without a submission, and goes on serving', async () => {
    solver.script = { ...SOLVING, dieAfter: 1 };

    const { outcome } = await runTask('sample:1');

    expect(outcome).toMatchObject({ finishReason: 'solver-failed', commands: 1, metrics: { status: 'no_submission', file_acc: 0 } });
    solver.script = SOLVING;
    const { outcome: next } = await runTask('sample:1');
    expect(next.metrics.status).toBe('scored');
  });

  it('scores a solver that ends its stream without [TASK FINISHED]', async () => {
    solver.script = { ...SOLVING, skipFinished: true };

    const { outcome } = await runTask('sample:1');

    expect(outcome).toMatchObject({ finishReason: 'solver-ended', metrics: { status: 'scored', func_recall: 1 } });
  });

  it('gives two tasks on the same id two containers and two workspaces that never see each other', async () => {
    solver.script = { commands: (contextId) => [`echo ${contextId} > /workspace/shared/mine && sleep 1 && ls /workspace/shared && hostname`] };

    const outcomes = await Promise.all([runTask('sample:2'), runTask('sample:2')]);

    const outputs = solver.runs.map((run) => parseCommandResult(run.replies[0])?.output.split('\n') ?? []);
    expect(outputs.map((lines) => lines[0])).toEqual(['mine', 'mine']);
    expect(new Set(outputs.map((lines) => lines[1])).size).toBe(2);
    expect(outcomes.map(({ outcome }) => outcome.metrics.status)).toEqual(['no_submission', 'no_submission']);
  });

  it('refuses commands on an unknown context, and never opens a shell for them', async () => {
    const reply = await clients.peer(greenUrl).sendText(randomUUID(), 'execute: id', { deadlineMs: 10_000 });

    expect(reply).toMatch(/^Command rejected: no running task has this context id/);
  });

  it('fails a malformed task id clearly, before it reaches a path, an image or a URL', async () => {
    const { outcome, events } = await runTask('arvo:../../etc');

    expect(outcome.metrics).toMatchObject({ status: 'failed' });
    expect(outcome.metrics.detail).toMatch(/task id/i);
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'failed' });
  });

  it('answers raw v0.3 JSON-RPC, as Python AgentBeats clients send it', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'Task ID: sample:1' }] } },
    };

    const response = await fetch(greenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answer = (await response.json()) as { result: { kind: string; status: { state: string }; artifacts: { name: string }[] } };

    expect(answer.result.kind).toBe('task');
    expect(answer.result.status.state).toBe('completed');
    expect(answer.result.artifacts.map((artifact) => artifact.name)).toEqual(['Result']);
  });
});
