import { TRAJECTORY_FORMAT, type Trajectory } from '@arvo-rca/common';
import { formatSolverExit, MAX_EXIT_REASON_CHARS, parseSolverExit, summarizedSolverExit, type SolverExit, type SolverUsage } from './solver-exit';
import { MAX_TRAJECTORY_SUMMARY_CHARS, SUMMARY_COMMAND_CHARS, summarizeTrajectory } from './trajectory-summary';

const USAGE: SolverUsage = {
  input_tokens: 1_200_000,
  output_tokens: 300_000,
  cache_read_tokens: 800_000,
  cache_creation_tokens: 100_000,
  est_usd_cost: 12.3456,
  llm_requests: 400,
  time_cost_sec: 1799.5,
};

/** A run of `steps` steps, each a long command with a long thought and a long output in the messages. */
function run(steps: number): Trajectory {
  const commands = Array.from({ length: steps }, (_, index) => ({
    step: index + 1,
    command: `step-${index + 1}: ${'grep -rn needle /src | head; '.repeat(40)}`,
    returncode: index % 3,
    timed_out: false,
    output_chars: 9000,
    by: 'model' as const,
  }));
  return {
    info: {
      exit_status: 'Submitted',
      submission: 'x'.repeat(5000),
      model_stats: { instance_cost: USAGE.est_usd_cost, api_calls: steps },
      config: {
        agent: { stepLimit: 0, note: 'y'.repeat(3000) },
        model: { model_name: 'anthropic/claude-sonnet-4-6' },
        environment: { task_id: 'arvo:14368', context_id: 'ctx-1' },
      },
      tokens: { input: 1, output: 2, cache_read: 3, cache_write: 4 },
      model_calls: commands.map(() => ({ input: 1000, output: 100, cache_read: 0, cache_write: 0, cost: 0.01, truncated: false })),
      commands,
    },
    messages: commands.flatMap(({ command }) => [
      { role: 'assistant' as const, content: `THOUGHT: ${'z'.repeat(2000)}\n\n\`\`\`bash\n${command}\n\`\`\`` },
      { role: 'user' as const, content: `<output>${'o'.repeat(9000)}</output>` },
    ]),
    trajectory_format: TRAJECTORY_FORMAT,
  };
}

describe("a solver's exit for an assessor that is not ours", () => {
  const exit = (steps: number): SolverExit => ({
    exitStatus: 'Submitted',
    reason: 'r'.repeat(MAX_EXIT_REASON_CHARS),
    usage: USAGE,
    trajectory: { path: '/logs/run-1/trajectories/arvo_14368-ctx-1.traj.json', document: run(steps) },
  });

  it.each([1, 7, 60, 1000])('stays within a few KiB for a run of %i steps, with no local path and no messages', (steps) => {
    const sent = summarizedSolverExit(exit(steps));

    expect(JSON.stringify(exit(steps).trajectory?.document).length).toBeGreaterThan(steps * 10_000);
    expect(JSON.stringify(sent.trajectory_summary).length).toBeLessThanOrEqual(MAX_TRAJECTORY_SUMMARY_CHARS);
    // The summary, the longest reason and the usage: under 8 KiB whatever the run.
    expect(JSON.stringify(sent).length).toBeLessThan(8 * 1024);
    expect(JSON.stringify(sent)).not.toContain('/logs/');
    expect(sent).toMatchObject({ exit_status: 'Submitted', usage: USAGE });
    expect(sent).not.toHaveProperty('trajectory');
    expect(sent).not.toHaveProperty('trajectory_document');
    expect(sent.trajectory_summary?.messages).toEqual([]);
    expect(sent.trajectory_summary?.info.summary).toMatchObject({ steps, model_calls: steps, messages: 2 * steps, command_chars: SUMMARY_COMMAND_CHARS });
  });

  it('keeps the step count and the first and the last commands, each cut to its first characters', () => {
    const summary = summarizeTrajectory(run(1000));
    const commands = summary.info.commands;

    expect(summary.info.summary?.commands_kept).toBe(commands.length);
    expect(commands.length).toBeGreaterThan(4);
    expect(commands[0]).toMatchObject({ step: 1, returncode: 0, output_chars: 9000, command: expect.stringMatching(/^step-1: grep/) });
    expect(commands.at(-1)).toMatchObject({ step: 1000, command: expect.stringMatching(/^step-1000: grep/) });
    for (const { command } of commands) expect(command.length).toBeLessThanOrEqual(SUMMARY_COMMAND_CHARS + 1);
    // A short run keeps every command.
    expect(summarizeTrajectory(run(2)).info.commands.map(({ step }) => step)).toEqual([1, 2]);
  });

  it('is read back by the green agent as the trajectory it records when no whole one came', () => {
    const sent = summarizedSolverExit(exit(7));

    expect(parseSolverExit([sent])).toEqual({
      exitStatus: 'Submitted',
      reason: 'r'.repeat(MAX_EXIT_REASON_CHARS),
      usage: USAGE,
      trajectory: { document: sent.trajectory_summary },
    });
    // The whole trajectory, when it came (the reply dialect), is still what is recorded.
    expect(parseSolverExit([formatSolverExit(exit(7))])?.trajectory?.document?.messages).toHaveLength(14);
  });
});
