import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { A2aClientFactory, formatCommandRejected, formatCommandResult, parseSolverExit, type A2aPeer, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { TRAJECTORY_FORMAT } from '@arvo-rca/common';
import { reply } from '@arvo-rca/fake-llm';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { fakeModelEnv, suiteLlm } from './support/stand-ins/fake-model.testing';

const DESCRIPTION = 'Root-cause analysis task arvo:14368.\nThe crash report is at /workspace/14368_error.txt.';
const ANSWER = JSON.stringify({
  reasoning: 'scripted',
  locations: [{ file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70, description: 'the fix' }],
});

/** What one turn of the conversation brought back: every event, and the last one's state and text. */
interface Turn {
  events: PeerEvent[];
  state: string;
  text: string;
  taskId: string;
  data: unknown[];
}

/**
 * A scripted driver playing an assessor that drives the conversation, as AgentBeats' gateway makes every
 * green agent do, against the real purple agent process started with no green URL at all.
 */
describe('the purple agent answering an assessor that drives the conversation (the reply dialect)', () => {
  const scratch = new Scratch();
  const llm = suiteLlm();
  let purple: AgentProcess;
  let solver: A2aPeer;

  beforeAll(async () => {
    const env = { ...scratch.env(), ...fakeModelEnv(llm()), GREEN_CALL_TIMEOUT_S: '3' };
    purple = await startAgent('purple-agent', env, await freePort());
    solver = new A2aClientFactory().peer(purple.url);
  });

  afterAll(async () => {
    await purple?.stop();
    scratch.remove();
  });

  async function turn(contextId: string, text: string, taskId?: string): Promise<Turn> {
    const events: PeerEvent[] = [];
    for await (const event of solver.streamText(contextId, text, { deadlineMs: 60_000, taskId })) events.push(event);
    const last = events.at(-1);
    if (!last || last.kind === 'artifact' || last.kind === 'message') throw new Error(`no task status at the end of the turn: ${JSON.stringify(events)}`);
    return { events, state: last.state, text: last.text, taskId: last.taskId, data: last.data };
  }

  it('replies with one command at a time in input-required, takes each result on the same task, and ends with [TASK FINISHED] and its usage', async () => {
    llm().script(
      reply('THOUGHT: read the crash report.\n\n```bash\nhead -n 3 /workspace/14368_error.txt\n```'),
      reply(`THOUGHT: write the answer.\n\n\`\`\`bash\ncat > /workspace/shared/loc.json <<'EOF'\n${ANSWER}\nEOF\n\`\`\``),
      reply('THOUGHT: submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```'),
    );
    const contextId = randomUUID();

    const first = await turn(contextId, DESCRIPTION);
    expect(first).toMatchObject({ state: 'input-required', text: 'execute: head -n 3 /workspace/14368_error.txt' });
    const second = await turn(contextId, formatCommandResult({ returncode: 0, output: '==1==ERROR: AddressSanitizer: heap-buffer-overflow\n' }), first.taskId);
    expect(second).toMatchObject({
      state: 'input-required',
      taskId: first.taskId,
      text: expect.stringMatching(/^execute: cat > \/workspace\/shared\/loc\.json <<'EOF'/),
    });
    // Each step is reported as it is taken, before the next command.
    expect(second.events).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'status', state: 'working', text: expect.stringMatching(/^step 1: head -n 3/) })]),
    );
    const third = await turn(contextId, formatCommandResult({ returncode: 0, output: '' }), first.taskId);
    expect(third).toMatchObject({ state: 'input-required', text: 'execute: echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT' });
    // The marker makes the agent read loc.json back before it submits.
    const read = await turn(contextId, formatCommandResult({ returncode: 0, output: 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n' }), first.taskId);
    expect(read).toMatchObject({ state: 'input-required', text: 'execute: cat /workspace/shared/loc.json' });
    const last = await turn(contextId, formatCommandResult({ returncode: 0, output: ANSWER }), first.taskId);

    expect(last).toMatchObject({ state: 'completed', taskId: first.taskId, text: expect.stringMatching(/^\[TASK FINISHED\] Submitted/) });
    expect(parseSolverExit(last.data)).toEqual({
      exitStatus: 'Submitted',
      usage: {
        input_tokens: expect.any(Number),
        output_tokens: expect.any(Number),
        cache_read_tokens: 0,
        cache_creation_tokens: 0,
        est_usd_cost: expect.any(Number),
        llm_requests: 3,
        time_cost_sec: expect.any(Number),
      },
      trajectory: {
        path: expect.stringMatching(/\/trajectories\/[^/]+\.traj\.json$/),
        document: expect.objectContaining({ trajectory_format: TRAJECTORY_FORMAT }),
      },
    });
    expect(parseSolverExit(last.data)?.usage?.input_tokens).toBeGreaterThan(0);
    // The trajectory travels with the exit, and is the one the solver wrote where it says.
    const sent = parseSolverExit(last.data)?.trajectory;
    expect(sent?.document?.info.exit_status).toBe('Submitted');
    expect(JSON.parse(readFileSync(sent?.path ?? '', 'utf8'))).toEqual(sent?.document);
  });

  it('shows a refused command to the model as an observation, and goes on', async () => {
    llm().script(reply('THOUGHT: look.\n\n```bash\ncat /etc/shadow\n```'), reply('THOUGHT: fine, look elsewhere.\n\n```bash\nls\n```'));
    const contextId = randomUUID();

    const first = await turn(contextId, DESCRIPTION);
    const second = await turn(contextId, formatCommandRejected('that file is not part of the task'), first.taskId);

    expect(second).toMatchObject({ state: 'input-required', text: 'execute: ls' });
    const lastRequest = llm()
      .requests.filter((request) => request.path.endsWith('/chat/completions'))
      .at(-1);
    expect(JSON.stringify(lastRequest?.body)).toContain('Command rejected: that file is not part of the task');
  });

  it('gives up on an assessor that never answers, within its deadline, and keeps the trajectory', async () => {
    llm().script(reply('THOUGHT: look.\n\n```bash\nls /workspace\n```'));
    const contextId = randomUUID();

    const first = await turn(contextId, DESCRIPTION);
    expect(first.state).toBe('input-required');

    await waitFor(() => trajectoryOf(scratch, contextId)?.info?.exit_status === 'EnvironmentError', 30_000);
    expect(trajectoryOf(scratch, contextId)?.info?.submission).toBe('');
    await purple.printed(/the green agent sent no answer within 3 s/);
  });
});

function trajectoryOf(scratch: Scratch, contextId: string): { info?: { exit_status?: string; submission?: string } } | undefined {
  const dir = join(scratch.runDir, 'trajectories');
  const file = readdirSync(dir).find((name) => name.includes(contextId));
  return file ? JSON.parse(readFileSync(join(dir, file), 'utf8')) : undefined;
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > until) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
