import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { A2aClientFactory, parseAssessmentSaved, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { reply } from '@arvo-rca/fake-llm';
import { SOLVER_USAGE_FIELDS, type AssessmentResult, type TaskRecord } from '@arvo-rca/results';
import { RecordLayout, recordResult, scanRecord } from '@arvo-rca/run-record';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { fakeModelEnv, suiteLlm } from './support/stand-ins/fake-model.testing';

// A model served locally, under a name no price table knows: its tokens are counted, its cost is unknown.
const UNPRICED = 'openai/local-coder-7b';
const ANSWER = JSON.stringify({
  reasoning: 'scripted',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});

describeWithDocker('usage as CyberGym reports it, from the real purple agent on a model without a price to the Result', () => {
  const scratch = new Scratch();
  const llm = suiteLlm();
  let green: AgentProcess;
  let purple: AgentProcess;
  let events: PeerEvent[];
  let result: AssessmentResult;

  beforeAll(async () => {
    const [greenPort, purplePort] = [await freePort(), await freePort()];
    const env = { ...scratch.env(), SANDBOX: 'docker', PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
    [green, purple] = await Promise.all([
      startAgent('green-agent', env, greenPort),
      startAgent('purple-agent', { ...env, ...fakeModelEnv(llm(), UNPRICED) }, purplePort),
    ]);
    llm().script(
      reply('THOUGHT: look first.\n\n```bash\nls /workspace\n```', { usage: { input: 1000, output: 40, cacheRead: 3000 } }),
      reply(`THOUGHT: found it.\n\n\`\`\`bash\ncat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n\`\`\``, {
        usage: { input: 200, output: 60, cacheRead: 4000 },
      }),
    );
    const request = { participants: { purple_agent: purple.url }, config: { task_ids: ['sample:1'] } };
    events = [];
    for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 120_000 }))
      events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
    if (!artifact) throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}`);
    result = artifact.data[0];
  });

  afterAll(async () => {
    await Promise.all([green?.stop(), purple?.stop()]);
    scratch.remove();
  });

  it('keeps the task’s tokens and calls as the solver counted them, and its cost as null, not 0', () => {
    expect(result.task_metrics['sample:1']).toMatchObject({
      status: 'scored',
      model: UNPRICED,
      input_tokens: 1200,
      cache_read_tokens: 7000,
      cache_creation_tokens: 0,
      output_tokens: 100,
      est_usd_cost: null,
      llm_requests: 2,
    });
  });

  it("lists the model in CyberGym's `models` form, named as the solver's card names it, with an unknown cost per task", () => {
    const task = result.task_metrics['sample:1'];

    // One task reported usage: the model's means per task are that task's own figures.
    expect(result.n_with_usage).toBe(1);
    expect(result.models).toEqual([{ name: UNPRICED, ...Object.fromEntries(SOLVER_USAGE_FIELDS.map((field) => [field, task[field]])) }]);
    expect(result.models[0]).toMatchObject({ est_usd_cost: null, llm_requests: 2 });
    expect(task.time_cost_sec).toBeGreaterThan(0);
  });

  it('writes the null cost into the record, whose Result read back again is the one sent', async () => {
    const recordDir = parseAssessmentSaved((events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
    const task = JSON.parse(readFileSync(new RecordLayout(recordDir).taskFile('sample:1'), 'utf8')) as TaskRecord;
    const scan = await scanRecord(recordDir);

    expect(task.metrics).toMatchObject({ input_tokens: 1200, est_usd_cost: null });
    expect(scan.assessment.solver.model).toBe(UNPRICED);
    expect(recordResult(scan.assessment, scan.done).models).toEqual(result.models);
  });
});
