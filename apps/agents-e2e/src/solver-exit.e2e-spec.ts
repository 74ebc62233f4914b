import { randomUUID } from 'node:crypto';
import { A2aClientFactory, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { httpError, reply } from '@arvo-rca/fake-llm';
import type { AssessmentResult } from '@arvo-rca/results';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { fakeModelEnv, suiteLlm } from './support/stand-ins/fake-model.testing';

describeWithDocker("the solver's own exit status, from the real purple agent into the green agent's record", () => {
  const scratch = new Scratch();
  const llm = suiteLlm();
  let green: AgentProcess;
  let purple: AgentProcess;

  beforeAll(async () => {
    const [greenPort, purplePort] = [await freePort(), await freePort()];
    const env = { ...scratch.env(), SANDBOX: 'docker', GREEN_AGENT_URL: `http://127.0.0.1:${greenPort}/`, PURPLE_AGENT_URL: `http://127.0.0.1:${purplePort}/` };
    [green, purple] = await Promise.all([
      startAgent('green-agent', env, greenPort),
      startAgent('purple-agent', { ...env, ...fakeModelEnv(llm()) }, purplePort),
    ]);
  });

  afterAll(async () => {
    await Promise.all([green?.stop(), purple?.stop()]);
    scratch.remove();
  });

  async function assess(taskIds: string[]): Promise<AssessmentResult> {
    const request = { participants: { purple_agent: purple.url }, config: { task_ids: taskIds } };
    const events: PeerEvent[] = [];
    for await (const event of new A2aClientFactory().peer(green.url).streamText(randomUUID(), JSON.stringify(request), { deadlineMs: 120_000 }))
      events.push(event);
    const artifact = events.find((event) => event.kind === 'artifact' && event.name === 'Result') as { data: AssessmentResult[] } | undefined;
    if (!artifact) throw new Error(`no Result artifact; last events: ${JSON.stringify(events.slice(-3))}\n${green.log.slice(-2000)}`);
    return artifact.data[0];
  }

  it('records ModelError and its reason for a task whose model refused the key, beside no_submission', async () => {
    llm().script(httpError(401, { message: 'invalid api key' }));

    const result = await assess(['sample:1']);

    expect(result.task_metrics['sample:1']).toMatchObject({
      status: 'no_submission',
      solver_exit_status: 'ModelError',
      solver_reason: expect.stringMatching(/the model failed.*invalid api key/),
    });
  });

  it('records Submitted, without a reason, for a task the solver submitted', async () => {
    const answer = JSON.stringify({
      reasoning: 'scripted',
      locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
    });
    llm().script(
      reply(
        `THOUGHT: the root cause is known.\n\n\`\`\`bash\ncat > /workspace/shared/loc.json <<'EOF'\n${answer}\nEOF\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n\`\`\``,
      ),
    );

    const result = await assess(['sample:1']);

    expect(result.task_metrics['sample:1']).toMatchObject({ status: 'scored', solver_exit_status: 'Submitted' });
    expect(result.task_metrics['sample:1']).not.toHaveProperty('solver_reason');
  });
});
