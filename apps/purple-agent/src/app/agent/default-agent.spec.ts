import { createHook } from 'node:async_hooks';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelCallError } from '../models/model-errors';
import { ScriptedModel, type ScriptedReply } from '../models/scripted-model';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from './agent-config';
import { AgentTemplates } from './agent-templates';
import { DefaultAgent } from './default-agent';
import { LocalWorkspaceEnvironment } from './local-workspace-environment.testing';
import { TrajectoryFileSink } from './trajectory';
import type { TaskEnvironment } from './task-environment';
import type { Trajectory } from '@arvo-rca/common';

const TASK = { taskId: 'sample:1', contextId: 'ctx-1', description: 'Find the root cause of the crash in /workspace/src-vul.' };
const VALID_LOC_JSON = JSON.stringify({
  reasoning: 'r',
  locations: [{ file: 'p/a.c', function: 'f', line_start: 3, line_end: 9, description: 'd' }],
});

function bash(command: string, thought = 'next'): string {
  return `THOUGHT: ${thought}\n\n\`\`\`bash\n${command}\n\`\`\``;
}
const SUBMIT = bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT');

describe('DefaultAgent', () => {
  let templates: AgentTemplates;
  let environment: LocalWorkspaceEnvironment;
  beforeAll(async () => {
    templates = await AgentTemplates.load();
  });
  beforeEach(async () => {
    environment = await LocalWorkspaceEnvironment.empty();
  });
  afterEach(async () => {
    await environment.dispose();
  });

  function agentWith(replies: ScriptedReply[], config: Partial<AgentConfig> = {}, env: TaskEnvironment = environment) {
    const model = new ScriptedModel(replies);
    const agent = new DefaultAgent(model, env, { templates, config: { ...DEFAULT_AGENT_CONFIG, ...config } });
    return { model, agent };
  }
  const writeLocJson = (text: string): string => bash(`cat > /workspace/shared/loc.json <<'EOF'\n${text}\nEOF`);

  it('runs the one bash block of each reply and shows the model the return code and output', async () => {
    const { agent, model } = agentWith([bash('echo hello; exit 3'), writeLocJson(VALID_LOC_JSON), SUBMIT]);

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('Submitted');
    expect(model.calls[1].at(-1)?.content).toBe('<returncode>3</returncode>\n<output>\nhello\n\n</output>');
    expect(agent.messages[0].role).toBe('system');
    expect(agent.messages[1].content).toContain(TASK.description);
    expect(agent.history.map((record) => record.command)).toEqual([
      'echo hello; exit 3',
      "cat > /workspace/shared/loc.json <<'EOF'\n" + VALID_LOC_JSON + '\nEOF',
      'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT',
      'cat /workspace/shared/loc.json',
    ]);
    expect(result.submission).toBe(`${VALID_LOC_JSON}\n`);
    expect(environment.finishCalls).toBe(1);
  });

  it.each([
    ['no bash block', 'THOUGHT: I will just think.', /it had none/],
    ['two bash blocks', `${bash('echo one')}\n${bash('echo two')}`, /it had 2/],
  ])('runs nothing for a reply with %s, and tells the model why', async (_, reply, why) => {
    const { agent, model } = agentWith([reply], { stepLimit: 1 });

    await agent.run(TASK);

    expect(environment.commands).toEqual([]);
    expect(agent.messages[3]).toEqual({ role: 'user', content: expect.stringMatching(why) });
    expect(agent.messages[3].content).toContain('EXACTLY ONE bash code block');
    expect(model.calls).toHaveLength(1);
  });

  it('ends with FormatError after three replies in a row that ran nothing, counting only consecutive ones', async () => {
    const { agent } = agentWith(['no block', 'no block', bash('echo ran'), 'no block', 'no block', 'no block', bash('echo never')]);

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('FormatError');
    expect(result.message).toMatch(/3 replies in a row ran nothing/);
    expect(environment.commands).toEqual(['echo ran']);
    expect(agent.usage.calls).toBe(6);
  });

  it('never runs a reply cut off by the token limit, and says so', async () => {
    const { agent } = agentWith([{ content: bash('rm -rf /workspace/shared'), truncated: true }], { stepLimit: 1 });

    await agent.run(TASK);

    expect(environment.commands).toEqual([]);
    expect(agent.messages.at(-2)?.content).toMatch(/cut off at the output token limit/);
  });

  it.each([
    ['the step limit', { stepLimit: 2 }, [bash('true'), bash('true'), bash('true')], 'LimitsExceeded', /step limit reached: 2 model calls/],
    [
      'the cost limit',
      { costLimit: 0.5 },
      [{ content: bash('true'), cost: 0.3 }, { content: bash('true'), cost: 0.3 }, bash('true')],
      'LimitsExceeded',
      /cost limit reached/,
    ],
  ] as const)('ends at %s with its exit status, before the next model call', async (_, config, replies, status, message) => {
    const { agent, model } = agentWith([...replies], config);

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe(status);
    expect(result.message).toMatch(message);
    expect(model.calls).toHaveLength(2);
  });

  it('ends with TimeExceeded once the wall-time limit has passed, checked before each model call', async () => {
    let now = 0;
    const model = new ScriptedModel([bash('true'), bash('true'), bash('true')]);
    const agent = new DefaultAgent(model, environment, { templates, config: { ...DEFAULT_AGENT_CONFIG, wallTimeLimitS: 10 }, clock: () => (now += 4000) });

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('TimeExceeded');
    expect(model.calls.length).toBeLessThan(3);
  });

  it('ends a model call that runs past the wall-time limit with TimeExceeded', async () => {
    const { agent } = agentWith([{ content: bash('true'), delayMs: 60_000 }], { wallTimeLimitS: 0.3 });
    const started = Date.now();

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('TimeExceeded');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("leaves no timer of the run's deadline once a model call is over: each would hold the task until the run's limit", async () => {
    // The runtime's own account of its timers: those of the run's deadline (an hour) still set.
    const pending = new Set<number>();
    const hook = createHook({
      init(id, type, _trigger, resource) {
        if (type === 'Timeout' && ((resource as { _idleTimeout?: number })._idleTimeout ?? 0) > 3_000_000) pending.add(id);
      },
      destroy(id) {
        pending.delete(id);
      },
    }).enable();
    try {
      const { agent } = agentWith([bash('true'), bash('true'), writeLocJson(VALID_LOC_JSON), SUBMIT], { wallTimeLimitS: 3600 });
      const result = await agent.run(TASK);
      await new Promise((resolve) => setImmediate(resolve));

      expect(result.exitStatus).toBe('Submitted');
      expect(pending.size).toBe(0);
    } finally {
      hook.disable();
    }
  });

  it('treats 0 as no limit', async () => {
    const replies = Array.from({ length: 70 }, () => ({ content: bash('true'), cost: 1 }));
    const { agent } = agentWith([...replies, writeLocJson(VALID_LOC_JSON), SUBMIT], { stepLimit: 0, costLimit: 0, wallTimeLimitS: 0 });

    expect((await agent.run(TASK)).exitStatus).toBe('Submitted');
    expect(agent.usage.calls).toBe(72);
  });

  it('ends with ModelError naming the failure when the model fails', async () => {
    const { agent } = agentWith([{ error: new ModelCallError('MODEL_AUTH', 'OpenAI answered HTTP 401: Incorrect API key provided.') }]);

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('ModelError');
    expect(result.message).toBe('the model failed (MODEL_AUTH): OpenAI answered HTTP 401: Incorrect API key provided.');
  });

  it('ends with EnvironmentError when the environment itself fails', async () => {
    const broken: TaskEnvironment = { execute: () => Promise.reject(new Error('green agent unreachable')), finish: () => Promise.resolve() };
    const { agent } = agentWith([bash('ls')], {}, broken);

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('EnvironmentError');
    expect(result.message).toContain('green agent unreachable');
  });

  it('records a failure it did not expect as its exit, with the reason, in the trajectory on disk, and throws it on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-uncaught-'));
    try {
      const agent = new DefaultAgent(new ScriptedModel([writeLocJson(VALID_LOC_JSON), SUBMIT]), environment, {
        templates,
        sink: new TrajectoryFileSink(join(dir, 'trajectory.json')),
        // A submission check with a bug of its own: nothing the model could fix.
        checkLocJson: () => {
          throw new TypeError('the validator lost its schema');
        },
      });

      await expect(agent.run(TASK)).rejects.toThrow('the validator lost its schema');

      const saved = JSON.parse(readFileSync(join(dir, 'trajectory.json'), 'utf8')) as Trajectory;
      expect(saved.info.exit_status).toBe('UncaughtError');
      expect(saved.messages.at(-1)?.content).toMatch(/^TypeError: the validator lost its schema\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('shows an output over 10,000 characters as its first and last 5,000 with the number elided', async () => {
    const { agent, model } = agentWith([bash(`printf 'a%.0s' $(seq 6000); printf 'b%.0s' $(seq 6000)`)], { stepLimit: 1 });
    const { agent: short, model: shortModel } = agentWith([bash(`printf 'c%.0s' $(seq 10000)`)], { stepLimit: 1 });

    await agent.run(TASK);
    await short.run(TASK);

    expect(model.calls).toHaveLength(1);
    const observation = agent.messages[3].content;
    expect(observation).toContain(`<output_head>\n${'a'.repeat(5000)}\n</output_head>`);
    expect(observation).toContain('<elided_chars>\n2000 characters elided\n</elided_chars>');
    expect(observation).toContain(`<output_tail>\n${'b'.repeat(5000)}\n</output_tail>`);
    expect(shortModel.calls).toHaveLength(1);
    expect(short.messages[3].content).toContain(`<output>\n${'c'.repeat(10000)}\n</output>`);
  });

  it('notes a command that timed out in the observation', async () => {
    const slow = await LocalWorkspaceEnvironment.empty({ commandTimeoutMs: 200 });
    try {
      const { agent } = agentWith([bash('echo started; sleep 5')], { stepLimit: 1 }, slow);

      await agent.run(TASK);

      expect(agent.messages[3].content).toMatch(/^<returncode>-1<\/returncode>\n<error>\nThe command timed out/);
      expect(agent.messages[3].content).toContain('started');
    } finally {
      await slow.dispose();
    }
  });

  it('tells the model what is wrong with a missing, then an invalid loc.json, and submits once it is valid', async () => {
    const badSpan = JSON.stringify({ reasoning: 'r', locations: [{ file: 'a.c', function: 'f', line_start: 50, line_end: 10 }] });
    const { agent } = agentWith([SUBMIT, writeLocJson('{"locations": ['), SUBMIT, writeLocJson(badSpan), SUBMIT, writeLocJson(VALID_LOC_JSON), SUBMIT], {
      submissionCorrections: 3,
    });

    const result = await agent.run(TASK);

    const corrections = agent.messages.filter((message) => message.content.startsWith('Your submission was not accepted'));
    expect(corrections.map((message) => message.content.split('\n').slice(0, 2).join('\n'))).toEqual([
      expect.stringMatching(/\/workspace\/shared\/loc.json cannot be read:\n- cat: .*No such file/),
      expect.stringMatching(/is not acceptable:\n- \/workspace\/shared\/loc.json is not valid JSON: /),
      'Your submission was not accepted, because /workspace/shared/loc.json is not acceptable:\n- locations[0].line_end (10) is before line_start (50)',
    ]);
    expect(result.exitStatus).toBe('Submitted');
    expect(environment.finishCalls).toBe(1);
  });

  it('takes the submission as it is once the corrections are used up', async () => {
    const { agent } = agentWith([SUBMIT, SUBMIT, SUBMIT], { submissionCorrections: 2 });

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('Submitted');
    expect(result.submission).toBe('');
    expect(agent.messages.at(-3)?.content).toContain('This was the last correction');
    expect(result.message).toBe('submitted without a readable /workspace/shared/loc.json');
  });

  it('does not take the marker as a submission when the command failed or printed something first', async () => {
    writeFileSync(join(environment.workspace, 'shared', 'loc.json'), VALID_LOC_JSON);
    const { agent } = agentWith([bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT; false'), bash('echo x; echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')], {
      stepLimit: 2,
    });

    const result = await agent.run(TASK);

    expect(result.exitStatus).toBe('LimitsExceeded');
    expect(environment.finishCalls).toBe(0);
  });
});
