import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, parseAssessmentSaved, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { FakeLlmServer, reply } from '@arvo-rca/fake-llm';
import type { AssessmentResult, TaskRecord } from '@arvo-rca/results';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { RecordLayout } from '@arvo-rca/run-record';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];

// The first hunk of each sample's fix: where a perfect answer points.
const ROOT_CAUSES: Record<string, { file: string; function: string; line_start: number; line_end: number }> = {
  'sample:1': { file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70 },
  'sample:2': { file: 'src/body.c', function: 'qp_decoded_size', line_start: 22, line_end: 29 },
  'sample:3': { file: 'src/value.c', function: 'ini_unescape', line_start: 109, line_end: 114 },
  'sample:4': { file: 'src/decode.c', function: 'decode_dict', line_start: 158, line_end: 163 },
  'sample:5': { file: 'src/image.c', function: 'rz_image_create', line_start: 3, line_end: 22 },
};

interface Run {
  events: PeerEvent[];
  result: AssessmentResult;
}

/**
 * Both agents as real processes, sharing one run directory; the green agent gets a fresh port pair. The
 * purple agent knows no green URL, as on AgentBeats (the reply dialect), unless `callback` asks it to call back.
 */
async function startBoth(
  scratch: Scratch,
  purpleEnv: NodeJS.ProcessEnv = {},
  dialect: 'reply' | 'callback' = 'reply',
  masking: 'on' | 'off' = 'on',
): Promise<{ green: AgentProcess; purple: AgentProcess }> {
  const [greenPort, purplePort] = [await freePort(), await freePort()];
  const env = { ...scratch.env(), SANDBOX: 'docker', MASK_TASK_IDS: masking, PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
  const solverEnv = { ...env, ...purpleEnv, ...(dialect === 'callback' ? { GREEN_AGENT_URL: `http://127.0.0.1:${greenPort}/` } : {}) };
  const [green, purple] = await Promise.all([startAgent('green-agent', env, greenPort), startAgent('purple-agent', solverEnv, purplePort)]);
  return { green, purple };
}

async function assess(green: AgentProcess, purple: AgentProcess, concurrency: number, config: object = {}): Promise<Run> {
  const request = { participants: { purple_agent: purple.url }, config: { task_ids: SAMPLES, concurrency, ...config } };
  const events: PeerEvent[] = [];
  for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 240_000 }))
    events.push(event);
  const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
  if (!artifact) throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}`);
  return { events, result: artifact.data[0] };
}

/** Nothing of the green process may be left: no container with its owner id, no workspace. */
async function expectNothingLeft(scratch: Scratch, green: AgentProcess): Promise<void> {
  const containers = await new Docker().listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
  expect(containers.filter((container) => container.Labels[LABEL_OWNER]?.includes(`:${green.child.pid}:`))).toEqual([]);
  expect(readdirSync(scratch.tasks)).toEqual([]);
}

/**
 * The run directory: a log per task, a trajectory per task and the assessment's record. With masked ids the
 * solver knows each task by its masked id, and logs under it: the record says which masked id was which task.
 */
const DIALECT_NOTES = { reply: 'replying to the green agent', callback: 'calling back http', 'terminal-bench': 'answering a terminal-bench-shell-v1 assessor' };

function expectLogLayout(scratch: Scratch, run: Run, dialect: keyof typeof DIALECT_NOTES): void {
  const { result } = run;
  const files = readdirSync(scratch.runDir);
  expect(files).toEqual(expect.arrayContaining(['agents.log', 'trajectories', 'assessments', ...SAMPLES.map((task) => `${task.replace(':', '_')}.log`)]));
  const recordDir = parseAssessmentSaved((run.events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
  const solverId = (task: string): string => (JSON.parse(readFileSync(new RecordLayout(recordDir).taskFile(task), 'utf8')) as TaskRecord).masked_id ?? task;
  const agentsLog = readFileSync(join(scratch.runDir, 'agents.log'), 'utf8');
  expect(agentsLog).toMatch(/ green .*listening on/);
  expect(agentsLog).toMatch(/ purple .*listening on/);
  for (const task of SAMPLES) {
    // One file per task with both agents' lines about it, under its real id whatever masked id the solver knew it by, and none of them in agents.log.
    const shownId = solverId(task);
    const taskLog = readFileSync(join(scratch.runDir, `${task.replace(':', '_')}.log`), 'utf8');
    expect(taskLog).toMatch(/ green {2}[0-9a-f]{8} \[TaskContextService\] sandbox arvo_\d_[0-9a-f]+ started/);
    expect(taskLog).toMatch(new RegExp(` purple [0-9a-f]{8} \\[PurpleExecutor\\] solving ${shownId} with .*, ${DIALECT_NOTES[dialect]}`));
    expect(agentsLog).not.toContain(`solving ${shownId}`);
  }
  expect(files.filter((file) => file.startsWith('task_'))).toEqual([]);
  const trajectories = readdirSync(join(scratch.runDir, 'trajectories'));
  expect(trajectories.map((file) => file.replace(/-[0-9a-f-]{36}\.traj\.json$/, '')).sort()).toEqual(
    SAMPLES.map((task) => solverId(task).replace(':', '_')).sort(),
  );
  for (const file of trajectories) {
    const trajectory = JSON.parse(readFileSync(join(scratch.runDir, 'trajectories', file), 'utf8'));
    expect(trajectory).toMatchObject({ trajectory_format: 'mini-swe-agent-1', info: { exit_status: 'Submitted' } });
  }
  expect(readdirSync(join(scratch.runDir, 'assessments'))).toHaveLength(1);
  expect(JSON.parse(readFileSync(join(recordDir, 'result.json'), 'utf8'))).toEqual(result);
}

describeWithDocker('an assessment of every sample, both agents as real processes', () => {
  describe('with the baseline model (no key), the green agent driving the conversation', () => {
    const scratch = new Scratch();
    let agents: { green: AgentProcess; purple: AgentProcess };
    let run: Run;

    beforeAll(async () => {
      agents = await startBoth(scratch, { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
      run = await assess(agents.green, agents.purple, 2);
    });

    afterAll(async () => {
      await Promise.all([agents?.green.stop(), agents?.purple.stop()]);
      scratch.remove();
    });

    it('scores the baseline exactly: it names the crash site, which is the root cause only in some samples', () => {
      expect(scoresOf(run.result)).toEqual(BASELINE_SCORES);
      expect(run.result).toMatchObject({ domain: 'arvo_rca', n_tasks: 5, n_scored: 5, file_acc_mean: 0.8, func_recall_mean: 0.6 });
    });

    it('produces the Result artifact in the shape docs/scores.md gives it', () => {
      expect(Object.keys(run.result)).toEqual(
        expect.arrayContaining([
          'domain',
          'n_tasks',
          'n_scored',
          'time_used',
          'n_with_usage',
          'models',
          'file_acc_mean',
          'func_recall_mean',
          'func_precision_mean',
          'line_iou_mean',
          'line_proximity_mean',
          'func_topk_recall_mean',
          'line_topk_recall_mean',
          'task_metrics',
        ]),
      );
      expect(Object.keys(run.result.func_topk_recall_mean)).toEqual(['1', '3', '5']);
      expect(run.events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
    });

    it("keeps each task's usage as the solver reported it on its final reply, and the model's means per task in `models`", () => {
      const tasks = Object.values(run.result.task_metrics);
      for (const metrics of tasks) {
        expect(metrics).toMatchObject({ solver_exit_status: 'Submitted', input_tokens: 0, output_tokens: 0, est_usd_cost: 0, model: 'baseline' });
        expect(metrics.llm_requests).toBeGreaterThan(2);
        expect(metrics.time_cost_sec).toBeGreaterThan(0);
      }
      expect(run.result.n_with_usage).toBe(5);
      expect(run.result.models).toEqual([expect.objectContaining({ name: 'baseline', input_tokens: 0, est_usd_cost: 0 })]);
      expect(run.result.models[0].llm_requests).toBeCloseTo(tasks.reduce((sum, metrics) => sum + (metrics.llm_requests ?? 0), 0) / 5, 5);
    });

    it('writes the log layout: a trajectory per task under the id the solver knew it by, and the run record', () => {
      expectLogLayout(scratch, run, 'reply');
      // Masked: no trajectory is named after its task, and nothing the solver was sent names one.
      const trajectories = readdirSync(join(scratch.runDir, 'trajectories'));
      expect(trajectories.every((file) => /^task_[0-9a-f]{8}-/.test(file))).toBe(true);
      for (const file of trajectories) {
        const { messages } = JSON.parse(readFileSync(join(scratch.runDir, 'trajectories', file), 'utf8')) as { messages: { role: string; content: string }[] };
        const received = messages.filter((message) => message.role === 'user').map((message) => message.content);
        expect(received.length).toBeGreaterThan(2);
        expect(received.join('\n')).not.toMatch(/sample[:_]\d/);
      }
    });

    it('leaves no container and no workspace behind', async () => {
      await expectNothingLeft(scratch, agents.green);
    });
  });

  describe("with the baseline model, the green agent speaking AgentBeats' terminal-bench-shell-v1 to our solver", () => {
    const scratch = new Scratch();
    let agents: { green: AgentProcess; purple: AgentProcess };
    let run: Run;

    beforeAll(async () => {
      agents = await startBoth(scratch, { MODEL: '', ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '' });
      run = await assess(agents.green, agents.purple, 2, { solver_protocol: 'terminal-bench-shell-v1' });
    });

    afterAll(async () => {
      await Promise.all([agents?.green.stop(), agents?.purple.stop()]);
      scratch.remove();
    });

    it('scores exactly as in the reply dialect: the envelope carried the task, and the loc.json the solver wrote was read from its sandbox', () => {
      expect(scoresOf(run.result)).toEqual(BASELINE_SCORES);
      expect(run.result).toMatchObject({ n_tasks: 5, n_scored: 5 });
    });

    it("reads the solver's exit and usage from its final message", () => {
      for (const metrics of Object.values(run.result.task_metrics)) {
        expect(metrics).toMatchObject({ solver_exit_status: 'Submitted', model: 'baseline', input_tokens: 0 });
        expect(metrics.llm_requests).toBeGreaterThan(2);
      }
      expect(run.result.n_with_usage).toBe(5);
    });

    it('keeps the dialect in the run record, and both agents log each task in its own file', () => {
      const recordDir = parseAssessmentSaved((run.events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
      expect(JSON.parse(readFileSync(join(recordDir, 'assessment.json'), 'utf8'))).toMatchObject({ solver_protocol: 'terminal-bench-shell-v1' });
      expectLogLayout(scratch, run, 'terminal-bench');
    });

    it('leaves no container and no workspace behind', async () => {
      await expectNothingLeft(scratch, agents.green);
    });
  });

  describe('with a scripted model behind an OpenAI-compatible server, the solver calling the green agent back', () => {
    const scratch = new Scratch();
    let llm: FakeLlmServer;
    let agents: { green: AgentProcess; purple: AgentProcess };
    let run: Run;

    beforeAll(async () => {
      llm = await FakeLlmServer.start({ apiKey: 'sk-test' });
      // One task at a time, so the replies are consumed in task order: read, answer, submit.
      llm.script(...SAMPLES.flatMap((task) => scriptFor(task)));
      // Ids unmasked, as RCAbench runs it: the scripted replies read `/workspace/<id>_error.txt`.
      agents = await startBoth(scratch, { MODEL: 'openai/gpt-4.1', OPENAI_BASE_URL: llm.openAiBaseUrl, OPENAI_API_KEY: 'sk-test' }, 'callback', 'off');
      run = await assess(agents.green, agents.purple, 1);
    });

    afterAll(async () => {
      await Promise.all([agents?.green.stop(), agents?.purple.stop()]);
      await llm?.close();
      scratch.remove();
    });

    it('scores every sample perfectly when the model names the fix', () => {
      expect(run.result).toMatchObject({
        n_tasks: 5,
        n_scored: 5,
        file_acc_mean: 1,
        func_recall_mean: 1,
        func_precision_mean: 1,
        line_iou_mean: 1,
        line_proximity_mean: 1,
      });
      expect(Object.values(run.result.task_metrics).map((metrics) => metrics.solver_exit_status)).toEqual(SAMPLES.map(() => 'Submitted'));
      for (const metrics of Object.values(run.result.task_metrics)) {
        expect(metrics).toMatchObject({ llm_requests: 3 });
        expect(metrics.input_tokens).toBeGreaterThan(0);
        expect(metrics.output_tokens).toBeGreaterThan(0);
      }
    });

    it('sent the real SDK requests: three per task, each with the whole history so far', () => {
      const calls = llm.requests.filter((request) => request.path.endsWith('/chat/completions'));
      expect(calls).toHaveLength(15);
      const lengths = calls.slice(0, 3).map((call) => (call.body as { messages: unknown[] }).messages.length);
      expect(lengths).toEqual([2, 4, 6]);
    });

    it('writes the log layout and leaves nothing behind', async () => {
      expectLogLayout(scratch, run, 'callback');
      await expectNothingLeft(scratch, agents.green);
    });
  });
});

function scriptFor(task: string) {
  const id = task.split(':')[1];
  const answer = JSON.stringify({ reasoning: 'scripted', locations: [{ ...ROOT_CAUSES[task], description: 'the fix' }] });
  return [
    reply(`THOUGHT: read the crash report first.\n\n\`\`\`bash\nhead -n 5 /workspace/${id}_error.txt\n\`\`\``),
    reply(`THOUGHT: the root cause is known.\n\n\`\`\`bash\ncat > /workspace/shared/loc.json <<'EOF'\n${answer}\nEOF\n\`\`\``),
    reply('THOUGHT: submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```'),
  ];
}
