import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import Docker from 'dockerode';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  A2aClientFactory,
  MAX_CONCURRENCY,
  parseAssessmentSaved,
  parseCommandResult,
  parseTaskProgress,
  parseTaskProgressLines,
  type PeerEvent,
  type TaskProgressLine,
} from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { SANDBOX_OWNER } from '@arvo-rca/sandbox';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { rejectionOf } from '@arvo-rca/a2a-protocol/testing';
import type { AssessmentResult, TaskRecordDraft } from '@arvo-rca/results';
import { greenStage } from '../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../stage/solver-stand-in.testing';

// The answer to sample:1: the hunk of its fix, in the function the fix changes.
const SAMPLE_1_ANSWER = JSON.stringify({
  reasoning: 'the length bound of a record ignores its header',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 60, line_end: 75, description: 'bound off by the header' }],
});

const SOLVING_COMMANDS = [
  'ls /workspace/src-vul',
  'test -e /src/tlvkit/.git; echo git=$?',
  'echo Task ID: arvo:123',
  `cat > /workspace/shared/loc.json <<'EOF'\n${SAMPLE_1_ANSWER}\nEOF`,
];
const SOLVING = callingBack(SOLVING_COMMANDS);

describeWithDocker('green agent, tasks against solver stand-ins', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const stage = greenStage('green');
  let tmpDir: string, green: NestFastifyApplication, greenUrl: string, solver: SolverStandIn;
  let owner: string;

  beforeAll(async () => {
    ({ scratch: tmpDir, green, greenUrl, solver } = await stage.start(SOLVING));
    owner = green.get<string>(SANDBOX_OWNER, { strict: false });
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

  async function runTask(task: string): Promise<{ outcome: TaskRecordDraft; events: PeerEvent[] }> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), `Task ID: ${task}`, { deadlineMs: 120_000 })) events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact');
    return { outcome: (artifact as { data: TaskRecordDraft[] }).data[0], events };
  }

  it('runs a task: commands run in the task container, loc.json is scored, everything is removed', async () => {
    const { outcome, events } = await runTask('sample:1');

    const [run] = solver.runs;
    const [description] = run.received;
    expect(description).toContain('Root-cause analysis task sample:1');
    expect(description).toContain('ERROR: AddressSanitizer: heap-buffer-overflow');
    expect(parseCommandResult(run.answers[0])).toEqual({ returncode: 0, output: 'tlvkit\n' });
    expect(parseCommandResult(run.answers[1])?.output).toBe('git=1\n');
    // A live task's message is never read as a new task, whatever it says.
    expect(parseCommandResult(run.answers[2])?.output).toBe('Task ID: arvo:123\n');
    // The answer to [TASK FINISHED], after the four commands'.
    expect(run.answers[4]).toMatch(/^\[TASK COMPLETED\] Commands executed: 4, Failed: 0, Time: [\d.]+s$/);
    expect(outcome).toMatchObject({
      task: 'sample:1',
      finish_reason: 'finished',
      run: { commands: 4 },
      metrics: { status: 'scored', file_acc: 1, func_recall: 1 },
    });
    expect(events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
  });

  it('finishes a task whose solver dies mid-task, without a submission, and goes on serving', async () => {
    solver.script = callingBack(SOLVING_COMMANDS, { dieAfter: 1 });

    const { outcome } = await runTask('sample:1');

    expect(outcome).toMatchObject({ finish_reason: 'solver-failed', run: { commands: 1 }, metrics: { status: 'no_submission', file_acc: 0 } });
    solver.script = SOLVING;
    const { outcome: next } = await runTask('sample:1');
    expect(next.metrics.status).toBe('scored');
  });

  it('scores a solver that ends its stream without [TASK FINISHED]', async () => {
    solver.script = callingBack(SOLVING_COMMANDS, { skipFinished: true });

    const { outcome } = await runTask('sample:1');

    expect(outcome).toMatchObject({ finish_reason: 'solver-ended', metrics: { status: 'scored', func_recall: 1 } });
  });

  it("keeps the exit status and reason the solver gives on its final status in the task's record", async () => {
    solver.script = callingBack(SOLVING_COMMANDS, {
      skipFinished: true,
      exit: { exitStatus: 'ModelError', reason: 'the model failed (401): invalid api key' },
    });

    const { outcome } = await runTask('sample:1');

    expect(outcome.metrics).toMatchObject({ status: 'scored', solver_exit_status: 'ModelError', solver_reason: 'the model failed (401): invalid api key' });
  });

  it('waits for the stream of a solver that finished, so that its exit status reaches the record too', async () => {
    solver.script = callingBack(SOLVING_COMMANDS, { exit: { exitStatus: 'Submitted' } });

    const { outcome } = await runTask('sample:1');

    expect(outcome).toMatchObject({ finish_reason: 'finished', metrics: { status: 'scored', solver_exit_status: 'Submitted' } });
    expect(outcome.metrics).not.toHaveProperty('solver_reason');
  });

  it('leaves the solver fields out of the record of a solver that says nothing of its run', async () => {
    const { outcome } = await runTask('sample:1');

    expect(Object.keys(outcome.metrics).filter((key) => key.startsWith('solver_'))).toEqual([]);
  });

  it('gives two tasks on the same id two containers and two workspaces that never see each other', async () => {
    solver.script = (contextId) => callingBack([`echo ${contextId} > /workspace/shared/mine && sleep 1 && ls /workspace/shared && hostname`]);

    const outcomes = await Promise.all([runTask('sample:2'), runTask('sample:2')]);

    const outputs = solver.runs.map((run) => parseCommandResult(run.answers[0])?.output.split('\n') ?? []);
    expect(outputs.map((lines) => lines[0])).toEqual(['mine', 'mine']);
    expect(new Set(outputs.map((lines) => lines[1])).size).toBe(2);
    expect(outcomes.map(({ outcome }) => outcome.metrics.status)).toEqual(['no_submission', 'no_submission']);
  });

  it('rejects commands and ends on an unknown context as tasks, never as bare messages, and never opens a shell for them', async () => {
    expect(await refusal('execute: id')).toMatch(/^Command rejected: no running task has this context id/);
    expect(await refusal('[TASK FINISHED]')).toMatch(/^Command rejected: no running task has this context id/);
    expect(solver.runs).toEqual([]);
  });

  /** The reason the green agent gives for refusing `text`: its task ends `rejected` at once, never as a bare message. */
  async function refusal(text: string): Promise<string> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), text, { deadlineMs: 10_000 })) events.push(event);
    return rejectionOf(events);
  }

  it('rejects a malformed task id by name where it arrives, before it reaches a path, an image or a URL', async () => {
    expect(await refusal('Task ID: arvo:../../etc')).toMatch(/^Invalid task request, nothing was started: invalid task id "arvo:..\/..\/etc"/);
    expect(solver.runs).toEqual([]);
  });

  it('rejects an empty id and an id of no configured source by name, and starts nothing', async () => {
    expect(await refusal('Task ID: arvo:')).toContain('the id after "arvo:" is empty');
    expect(await refusal('Task ID: foo:1')).toContain('unknown task source "foo" in task id "foo:1"');
    expect(solver.runs).toEqual([]);
  });

  it('rejects text it does not understand, saying what it takes', async () => {
    expect(await refusal('hello')).toBe(
      'Request not understood, nothing was started: send "Task ID: <source>:<id>" (for example "Task ID: arvo:14368") or an assessment request.',
    );
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

  async function assess(request: unknown): Promise<PeerEvent[]> {
    const events: PeerEvent[] = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 120_000 })) events.push(event);
    return events;
  }

  it('runs an AgentBeats assessment: tasks at once up to the concurrency, progress, a Result artifact, a results file', async () => {
    const events = await assess({ participants: { purple_agent: solver.agent.url }, config: { task_ids: ['sample:1', 'sample:3'], concurrency: 2 } });

    const statuses = events.flatMap((event) => (event.kind === 'status' ? [event] : []));
    const lines = statuses.flatMap((event) => parseTaskProgressLines(event.data));
    // Each line travels as data for drivers (a step's command whole), and as text for people: a line of its update's text.
    const sayingOf = (line: TaskProgressLine): string => `${line.task} ${line.kind}`;
    const textLines = (text: string): TaskProgressLine[] => text.split('\n').flatMap((line) => parseTaskProgress(line) ?? []);
    expect(statuses.map((status) => parseTaskProgressLines(status.data).map(sayingOf))).toEqual(statuses.map((status) => textLines(status.text).map(sayingOf)));
    expect(lines).toEqual(
      expect.arrayContaining([
        { task: 'sample:1', kind: 'started' },
        { task: 'sample:3', kind: 'started' },
      ]),
    );
    expect(
      lines
        .filter((line) => line.kind === 'finished')
        .map((line) => line.task)
        .sort(),
    ).toEqual(['sample:1', 'sample:3']);
    expect(lines.some((line) => line.kind === 'step')).toBe(true);
    const artifact = events.find((event) => event.kind === 'artifact') as { data: AssessmentResult[] };
    const result = artifact.data[0];
    // Sample 1 gets the right answer; sample 3's fix is elsewhere, so the same answer scores nothing there.
    expect(result).toMatchObject({ domain: 'arvo_rca', n_tasks: 2, n_scored: 2, file_acc_mean: 0.5, func_recall_mean: 0.5 });
    expect(Object.keys(result.task_metrics)).toEqual(['sample:1', 'sample:3']);
    const final = events.at(-1) as { state: string; data: unknown[] };
    expect(final.state).toBe('completed');
    const saved = parseAssessmentSaved(final.data);
    expect(saved).toBeDefined();
    expect(JSON.parse(readFileSync(saved?.resultsFile ?? '', 'utf8'))).toEqual(result);
    // Nothing named the dialect of this solver, which calls back: the reply dialect served it, as its calls showed.
    const assessment = JSON.parse(readFileSync(join(saved?.recordDir ?? '', 'assessment.json'), 'utf8')) as unknown;
    expect(assessment).toMatchObject({ solver_protocol: 'reply', solver_protocol_source: 'first-answer' });
  });

  it('rejects a bad assessment request with every problem named, and starts nothing', async () => {
    const text = rejectionOf(
      await assess({ participants: { purple_agent: 'nowhere' }, config: { task_ids: ['sample:1', 'no such'], concurrency: MAX_CONCURRENCY + 1 } }),
    );

    expect(text).toContain('Invalid assessment request, nothing was started');
    expect(text).toContain('participants.purple_agent must be the URL of the solver (the purple agent)');
    expect(text).toContain(`config.concurrency must be at most ${MAX_CONCURRENCY}`);
    expect(text).toContain('config.task_ids[1]: invalid task id "no such"');
    expect(solver.runs).toEqual([]);
  });

  it('rejects bad shard values and ids of no configured source, naming each, and starts nothing', async () => {
    const text = rejectionOf(
      await assess({
        participants: { agent: solver.agent.url },
        config: { task_ids: ['sample:1', 'foo:1', 'arvo:1.2'], shard_index: 2, num_shards: 2 },
      }),
    );

    expect(text).toContain('config.shard_index (2) must be below config.num_shards (2)');
    expect(text).toContain('config.task_ids[1]: unknown task source "foo"');
    expect(text).toContain('config.task_ids[2]: invalid task id "arvo:1.2"');
    expect(solver.runs).toEqual([]);
  });

  it("runs its shard of the list, names the config keys it ignores first, and keeps the solver's usage in the Result, per task and as its model's means", async () => {
    const usage = {
      input_tokens: 900,
      output_tokens: 80,
      cache_read_tokens: 0,
      cache_creation_tokens: 0,
      est_usd_cost: 0.01,
      llm_requests: 3,
      time_cost_sec: 2,
    };
    solver.script = callingBack(SOLVING_COMMANDS, { exit: { exitStatus: 'Submitted', usage } });
    const config = { assessment_config: { task_ids: ['sample:3', 'sample:1', 'sample:2'], max_turns: 50 }, shard_index: 1, num_shards: 2, gateway_id: 'g-1' };

    const events = await assess({ participants: { purple_agent: solver.agent.url }, config });

    expect(events.find((event) => event.kind === 'status')?.text).toMatch(
      /^assessment of 1 tasks \(shard 1 of 2\).*; ignoring config keys: gateway_id, assessment_config\.max_turns$/,
    );
    const result = (events.find((event) => event.kind === 'artifact') as { data: AssessmentResult[] }).data[0];
    expect(result).toMatchObject({ shard: { index: 1, count: 2 }, task_ids: ['sample:1'], n_tasks: 1, n_scored: 1, n_with_usage: 1 });
    // The stand-in's card declares no model; one task reported usage, so its means are that task's figures.
    expect(result.models).toEqual([{ name: null, ...usage }]);
    expect(result.task_metrics['sample:1']).toMatchObject({ ...usage, n_commands: 4, n_failed_commands: 0, wall_time_sec: expect.any(Number) });
  });
});
