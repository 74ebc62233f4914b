import { trajectorySteps } from './trajectory-steps';
import { ViewerError } from './viewer-error';

const trajectory = (messages: { role: string; content: string }[], info: object = {}): string =>
  JSON.stringify({ info, messages, trajectory_format: 'mini-swe-agent-1' });

describe('a trajectory read as steps', () => {
  it('makes each model reply a step, with what the solver was shown next', () => {
    const view = trajectorySteps(
      trajectory([
        { role: 'system', content: 'system prompt' },
        { role: 'user', content: 'the task' },
        { role: 'assistant', content: 'THOUGHT: two commands.\n```bash\nls\n```\n```bash\npwd\n```' },
        { role: 'user', content: 'Reply with exactly one bash block.' },
        { role: 'assistant', content: 'THOUGHT: submit.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```' },
        { role: 'user', content: '{"locations": []}' },
      ]),
    );

    expect(view.instance).toBe('the task');
    expect(view.steps.map((step) => [step.index, step.thought, step.command, step.output])).toEqual([
      [1, 'THOUGHT: two commands.', null, 'Reply with exactly one bash block.'],
      [2, 'THOUGHT: submit.', 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT', '{"locations": []}'],
    ]);
    expect(view.closing).toBeNull();
  });

  it("takes each step's tokens and cost from its model call, and the return code of the model's command, not the agent's own", () => {
    const view = trajectorySteps(
      trajectory(
        [
          { role: 'user', content: 'the task' },
          { role: 'assistant', content: '```bash\ncat x\n```' },
          { role: 'user', content: 'no such file' },
        ],
        {
          model_calls: [{ input: 10, output: 2, cache_read: 5, cache_write: 1, cost: 0.5 }],
          commands: [
            { step: 1, command: 'cat x', returncode: 1, by: 'model' },
            { step: 1, command: 'cat loc.json', returncode: 0, by: 'agent' },
          ],
        },
      ),
    );

    expect(view.steps[0]).toMatchObject({ returncode: 1, tokens: { input: 10, output: 2, cache_read: 5, cache_write: 1 }, cost: 0.5 });
  });

  it('keeps a message after the last step as how the run ended', () => {
    const view = trajectorySteps(
      trajectory([
        { role: 'assistant', content: '```bash\nls\n```' },
        { role: 'user', content: 'a.c' },
        { role: 'user', content: 'step limit reached' },
      ]),
    );

    expect(view.closing).toBe('step limit reached');
  });

  it('reads a foreign file with no info as steps without usage', () => {
    const view = trajectorySteps(JSON.stringify({ messages: [{ role: 'assistant', content: 'hello' }] }));

    expect(view).toMatchObject({ model: null, exit_status: null, cost: null, tokens: null, instance: null });
    expect(view.steps).toEqual([{ index: 1, thought: 'hello', command: null, output: null, returncode: null, tokens: null, cost: null }]);
  });

  it('says so when the file is not whole JSON', () => {
    expect(() => trajectorySteps('{"messages": [')).toThrow(ViewerError);
    expect(() => trajectorySteps('{"messages": [')).toThrow(/^the trajectory is not whole JSON/);
  });
});
