import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { A2aClientFactory, parseCommandResult, type SolverUsage } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { greenStage } from '../../stage/green-stage.testing';
import type { SolverStandIn, SolverTurn } from '../../stage/solver-stand-in.testing';
import { MAX_CORRECTIONS } from '.';

const ANSWER = JSON.stringify({
  reasoning: 'the length bound of a record ignores its header',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'bound off by the header' }],
});
const WRITE_ANSWER = `execute: cat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF`;
const USAGE: SolverUsage = {
  input_tokens: 900,
  output_tokens: 120,
  cache_read_tokens: 0,
  cache_creation_tokens: 0,
  est_usd_cost: 0.004,
  llm_requests: 3,
  time_cost_sec: 2.5,
};

describeWithDocker('green agent driving the conversation (the reply dialect), against solvers that never call back', () => {
  const clients = new A2aClientFactory();
  const stage = greenStage('reply');
  let scratch: string, green: NestFastifyApplication, greenUrl: string, solver: SolverStandIn;

  beforeAll(async () => {
    ({ scratch, green, greenUrl, solver } = await stage.start([]));
  });

  afterEach(async () => expectNothingLeft(green, scratch));

  async function runTask(turns: SolverTurn[]): Promise<TaskRecordDraft> {
    solver.runs.length = 0;
    solver.script = turns;
    return runOn(clients, greenUrl);
  }

  it("sends each reply's command to the sandbox and its result back on the same task, until [TASK FINISHED]; then scores", async () => {
    const outcome = await runTask([
      { ask: 'THOUGHT: what is there?\nexecute: ls /workspace/src-vul' },
      { ask: WRITE_ANSWER },
      { complete: '[TASK FINISHED]', exit: { exitStatus: 'Submitted', usage: USAGE } },
    ]);

    const [run] = solver.runs;
    expect(run.received[0]).toContain('Root-cause analysis task sample:1');
    expect(run.received[0]).toContain('Answer each message of this conversation with one shell command');
    expect(parseCommandResult(run.received[1])).toEqual({ returncode: 0, output: 'tlvkit\n' });
    expect(parseCommandResult(run.received[2])).toEqual({ returncode: 0, output: '' });
    expect(run.received).toHaveLength(3);
    // One A2A task, continued while it waits for input.
    expect(new Set(run.taskIds).size).toBe(1);
    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 2, failed_commands: 0 } });
    expect(outcome.metrics).toMatchObject({
      status: 'scored',
      file_acc: 1,
      func_recall: 1,
      solver_exit_status: 'Submitted',
      input_tokens: 900,
      llm_requests: 3,
    });
  });

  it('reads a reply from the artifacts of a task that completes, and goes on with a new task on the same context', async () => {
    const outcome = await runTask([{ artifact: WRITE_ANSWER }, { artifact: '[TASK FINISHED]' }]);

    const [run] = solver.runs;
    expect(parseCommandResult(run.received[1])).toEqual({ returncode: 0, output: '' });
    expect(run.received).toHaveLength(2);
    expect(new Set(run.taskIds).size).toBe(2);
    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 1 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
  });

  it(`corrects replies that hold no single action, ${MAX_CORRECTIONS} times in a row at most; then the task ends and is scored`, async () => {
    const outcome = await runTask([
      { ask: 'I believe the bug is in index_span.' },
      { ask: '' },
      { ask: 'execute: ls\nexecute: pwd' },
      { ask: `execute: echo ${'x'.repeat(300_000)}` },
      { ask: 'execute: echo never run' },
    ]);

    const [run] = solver.runs;
    expect(run.received.slice(1)).toEqual([
      expect.stringMatching(/^Command rejected: your reply holds no action\. Reply with exactly one command as "execute: <command>"/),
      expect.stringMatching(/^Command rejected: your reply was empty\./),
      expect.stringMatching(/^Command rejected: your reply holds 2 commands; send one at a time\./),
      // The solver, still waiting for a message, is told that its task is over.
      expect.stringMatching(/^\[TASK COMPLETED\] Commands executed: 0, Failed: 0, Time: /),
    ]);
    expect(outcome).toMatchObject({ finish_reason: 'solver-ended', run: { commands: 0 } });
    expect(outcome.metrics).toMatchObject({ status: 'no_submission' });
  });

  it('never runs an execute: that a reply carries inside JSON or inside a quote, as a solver echoing our text does', async () => {
    const planted = 'execute: touch /workspace/shared/planted';
    const outcome = await runTask([
      { ask: 'execute: true' },
      { ask: JSON.stringify({ kind: 'final', output: `Answer each message with one shell command, as \`execute: <command>\`;\n${planted}` }) },
      { ask: `You said: "${planted}"\n> ${planted}` },
      { ask: WRITE_ANSWER },
      { ask: 'execute: ls /workspace/shared' },
      { complete: '[TASK FINISHED]' },
    ]);

    const [run] = solver.runs;
    expect(run.received.slice(2, 4)).toEqual([
      expect.stringMatching(/^Command rejected: your reply is JSON, which holds no action\./),
      expect.stringMatching(/^Command rejected: your reply holds no action\./),
    ]);
    expect(parseCommandResult(run.received[5])).toEqual({ returncode: 0, output: 'loc.json\n' });
    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 3 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
  });

  it('counts corrections in a row only: a command in between starts the count again', async () => {
    const outcome = await runTask([
      { ask: 'thinking' },
      { ask: 'still thinking' },
      { ask: 'execute: true' },
      { ask: 'thinking again' },
      { ask: 'and again' },
      { ask: WRITE_ANSWER },
      { complete: '[TASK FINISHED]' },
    ]);

    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 2 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
  });

  it('takes the command of a reply that completed its task or came as a message, and answers on the same context', async () => {
    const outcome = await runTask([
      { complete: 'execute: echo first' },
      { message: 'execute: echo second' },
      { complete: WRITE_ANSWER },
      { complete: '[TASK FINISHED]' },
    ]);

    const [run] = solver.runs;
    expect(run.received.slice(1, 3).map((text) => parseCommandResult(text)?.output)).toEqual(['first\n', 'second\n']);
    // Each reply ended its task, so each answer starts a new one on the context.
    expect(new Set(run.taskIds).size).toBe(run.taskIds.length);
    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 3 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
  });

  it('serves a solver that calls back and replies on the same context at once', async () => {
    const outcome = await runTask([
      { send: 'execute: echo called back' },
      { ask: 'execute: echo replied' },
      { send: WRITE_ANSWER },
      { ask: '[TASK FINISHED]' },
    ]);

    const [run] = solver.runs;
    expect(parseCommandResult(run.answers[0])?.output).toBe('called back\n');
    expect(parseCommandResult(run.received[1])?.output).toBe('replied\n');
    expect(outcome).toMatchObject({ finish_reason: 'finished', run: { commands: 3 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
  });

  it('ends the task when the solver completes it without an action, and scores what is there', async () => {
    const outcome = await runTask([{ ask: WRITE_ANSWER }, { complete: 'I am done here.', exit: { exitStatus: 'LimitsExceeded', reason: 'step limit' } }]);

    expect(outcome).toMatchObject({ finish_reason: 'solver-ended', run: { commands: 1 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1, solver_exit_status: 'LimitsExceeded', solver_reason: 'step limit' });
  });

  it('reads a failed reply as the solver failing, and keeps why', async () => {
    const outcome = await runTask([
      { ask: 'execute: true' },
      { fail: 'the model is unreachable', exit: { exitStatus: 'ModelError', reason: 'connection refused' } },
    ]);

    expect(outcome).toMatchObject({ finish_reason: 'solver-failed', run: { commands: 1 } });
    expect(outcome.metrics).toMatchObject({ status: 'no_submission', solver_exit_status: 'ModelError', solver_reason: 'connection refused' });
  });
});

describeWithDocker('green agent driving the conversation, against a solver that falls silent', () => {
  const stage = greenStage('silent');
  let scratch: string, green: NestFastifyApplication, greenUrl: string;

  beforeAll(async () => {
    ({ scratch, green, greenUrl } = await stage.start([{ ask: WRITE_ANSWER }, { silent: true }], { TASK_TIMEOUT_S: '6' }));
  });

  it("stops waiting at the task's time limit, scores what the solver wrote, and leaves nothing behind", async () => {
    const outcome = await runOn(new A2aClientFactory(), greenUrl);

    expect(outcome).toMatchObject({ finish_reason: 'timeout', run: { commands: 1 } });
    expect(outcome.metrics).toMatchObject({ status: 'scored', file_acc: 1 });
    await expectNothingLeft(green, scratch);
  }, 120_000);
});

async function runOn(clients: A2aClientFactory, greenUrl: string): Promise<TaskRecordDraft> {
  let outcome: TaskRecordDraft | undefined;
  for await (const event of clients.peer(greenUrl).streamText(randomUUID(), 'Task ID: sample:1', { deadlineMs: 120_000 })) {
    if (event.kind === 'artifact') outcome = (event.data as TaskRecordDraft[])[0];
  }
  if (!outcome) throw new Error('the green agent sent no Result');
  return outcome;
}

async function expectNothingLeft(green: NestFastifyApplication, scratch: string): Promise<void> {
  const owner = green.get<string>(SANDBOX_OWNER, { strict: false });
  expect(await new Docker().listContainers({ all: true, filters: { label: [`${LABEL_OWNER}=${owner}`] } })).toEqual([]);
  expect(readdirSync(join(scratch, 'tasks'))).toEqual([]);
}
