import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSolverExit } from '@arvo-rca/a2a-protocol';
import { reply } from '@arvo-rca/fake-llm';
import { Scratch, startAgent, type AgentProcess } from './support/processes/agent-processes';
import { fakeModelEnv, suiteLlm } from './support/stand-ins/fake-model.testing';
import { TaskShell } from './support/engines/task-shell';
import { TerminalBenchAssessor } from './support/stand-ins/terminal-bench-assessor';

const INSTRUCTION = 'Create a file named hello.txt in the current directory, holding the single line `hello`.';

/**
 * The purple agent, a real process knowing no green URL, under a stand-in of AgentBeats' terminal-bench assessor
 * (terminal-bench-shell-v1, see support/stand-ins/terminal-bench-assessor.ts), on a task of the terminal-bench kind: a shell
 * task whose check runs after the solver's `final`. The model is scripted. The callback dialect, for an assessor that
 * waits for its solver to call back as the original's does, is served in assessment.e2e-spec.ts ("with a scripted
 * model behind an OpenAI-compatible server, the solver calling the green agent back").
 */
describe('the purple agent under a terminal-bench assessor (terminal-bench-shell-v1)', () => {
  const scratch = new Scratch();
  const llm = suiteLlm();
  let purple: AgentProcess;
  let workdir: string;

  beforeAll(async () => {
    purple = await startAgent('purple-agent', { ...scratch.env(), ...fakeModelEnv(llm()) });
  });

  beforeEach(() => (workdir = mkdtempSync(join(tmpdir(), 'terminal-bench-task-'))));
  afterEach(() => rmSync(workdir, { recursive: true, force: true }));

  afterAll(async () => {
    await purple?.stop();
    scratch.remove();
  });

  // The original assessor's client is the Python a2a-sdk 0.3 one; our own 1.0 client is checked too.
  it.each(['0.3', '1.0'] as const)(
    'passes a shell task in A2A %s: every command an exec_request in its own completed turn, the result its observation, and final at the end',
    async (a2a) => {
      llm().script(
        reply("THOUGHT: write the file.\n\n```bash\nprintf 'hello\\n' > hello.txt\n```"),
        reply('THOUGHT: check it.\n\n```bash\ncat hello.txt\n```'),
        reply('THOUGHT: done.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && echo wrote hello.txt\n```'),
      );
      const assessor = new TerminalBenchAssessor(purple.url, new TaskShell(workdir), { a2a });

      const output = await assessor.runSession(INSTRUCTION);

      // The task's check, as a terminal-bench test runs it once the solver is done.
      expect(readFileSync(join(workdir, 'hello.txt'), 'utf8')).toBe('hello\n');
      expect(assessor.transcript.filter((message) => message.to === 'green').map((message) => JSON.parse(message.text).kind)).toEqual([
        'exec_request',
        'exec_request',
        'exec_request',
        'final',
      ]);
      expect(JSON.parse(assessor.transcript[1].text)).toEqual({ kind: 'exec_request', command: "printf 'hello\\n' > hello.txt" });
      // Every turn is an A2A task of its own, completed, its reply in an artifact named Result.
      expect(assessor.turns).toHaveLength(4);
      expect(new Set(assessor.turns.map((turn) => turn.taskId)).size).toBe(4);
      expect(assessor.turns.map((turn) => [turn.state, turn.artifacts])).toEqual(Array(4).fill(['completed', ['Result']]));
      // The model saw the assessor's exec_result as the observation of its command.
      const lastPrompt = JSON.stringify(llm().requests.at(-1)?.body);
      expect(lastPrompt).toContain(JSON.stringify('<returncode>0</returncode>\n<output>\nhello\n\n</output>').slice(1, -1));
      expect(output).toMatchObject({ message: expect.stringMatching(/^\[TASK FINISHED\] Submitted: submitted "wrote hello.txt/) });
      expect(parseSolverExit([output])).toMatchObject({ exitStatus: 'Submitted', usage: expect.objectContaining({ llm_requests: 3 }) });
    },
  );

  it('ends with final in a completed turn when the run fails, saying why', async () => {
    llm().script(reply('THOUGHT: look.\n\n```bash\nls\n```'));
    const assessor = new TerminalBenchAssessor(purple.url, new TaskShell(workdir), { a2a: '0.3' });

    // The script has no second reply: the model's next call fails, and so does the run.
    const output = await assessor.runSession(INSTRUCTION);

    expect(assessor.turns.map((turn) => turn.state)).toEqual(['completed', 'completed']);
    expect(parseSolverExit([output])).toMatchObject({ exitStatus: 'ModelError', reason: expect.stringMatching(/the model failed/) });
  });
});
