import { parseShellMessage, parseSolverExit, TaskEvents, type SolverExit } from '@arvo-rca/a2a-protocol';
import { Role } from '@a2a-js/sdk';
import { DefaultExecutionEventBus, RequestContext, ServerCallContext, type AgentExecutionEvent } from '@a2a-js/sdk/server';
import { DEFAULT_AGENT_CONFIG } from '../agent/agent-config';
import { buildTrajectory, trajectoryPath } from '../agent/trajectory';
import { shellTurnDialect } from './turn-dialects';

// The `final` that ends a terminal-bench-shell-v1 run goes to a foreign assessor, which keeps its output:
// the exit, its usage and a bounded trajectory summary, however long the run; never the solver's own path.

const BOUND = 8 * 1024;

/** The trajectory of a run of `steps` steps, as the purple agent builds it: long commands, long outputs. */
function longRun(steps: number) {
  const history = Array.from({ length: steps }, (_, index) => ({
    step: index + 1,
    command: `cd /src && ${'grep -rn "ini_unescape" . | head -n 50 && '.repeat(30)}true`,
    by: 'model' as const,
    returncode: 0,
    output: 'line of output\n'.repeat(600),
  }));
  return buildTrajectory({
    exitStatus: 'LimitsExceeded',
    submission: '',
    usage: usageOf(steps),
    config: DEFAULT_AGENT_CONFIG,
    modelName: 'anthropic/claude-sonnet-4-6',
    task: { taskId: 'arvo:14368', contextId: 'ctx-long', description: 'find the root cause', submits: 'loc.json' },
    history,
    calls: history.map(() => ({ input: 30_000, output: 700, cacheRead: 25_000, cacheWrite: 400, cost: 0.1, truncated: false })),
    messages: history.flatMap(({ command, output }) => [
      { role: 'assistant' as const, content: `THOUGHT: keep looking.\n\n\`\`\`bash\n${command}\n\`\`\`` },
      { role: 'user' as const, content: `<returncode>0</returncode>\n<output>\n${output}</output>` },
    ]),
  });
}

/** What the terminal-bench-shell-v1 turn dialect publishes when the run ends with this trajectory, on a real bus. */
function finalOf(steps: number): { output: unknown; bytes: number } {
  const trajectory = longRun(steps);
  const path = trajectoryPath('/logs/run-1', 'arvo:14368', 'ctx-long');
  const exit: SolverExit = {
    exitStatus: 'LimitsExceeded',
    reason: 'the step limit (200) was reached',
    usage: usageOf(steps),
    trajectory: { path, document: trajectory },
  };
  const message = {
    messageId: 'm-1',
    contextId: 'ctx-long',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  const request = new RequestContext({ tenant: '', message, configuration: undefined, metadata: undefined }, 'task-1', 'ctx-long', new ServerCallContext());
  const bus = new DefaultExecutionEventBus();
  const published: AgentExecutionEvent[] = [];
  bus.on('event', (event) => published.push(event));
  shellTurnDialect('find the root cause').end(new TaskEvents(request, bus), 0, '[TASK FINISHED] LimitsExceeded', exit);
  const artifact = published.flatMap((event) => (event.kind === 'artifactUpdate' ? [event.data.artifact] : [])).at(-1);
  const part = artifact?.parts[0]?.content;
  const text = JSON.stringify(part?.$case === 'data' ? part.value : undefined);
  const final = parseShellMessage(text);
  return { output: final?.kind === 'final' ? final.output : undefined, bytes: Buffer.byteLength(text) };
}

function usageOf(steps: number) {
  return {
    input_tokens: 9e6,
    output_tokens: 4e5,
    cache_read_tokens: 7e6,
    cache_creation_tokens: 2e5,
    est_usd_cost: 31.5,
    llm_requests: steps,
    time_cost_sec: 1790,
  };
}

describe('the final of a terminal-bench-shell-v1 run', () => {
  it.each([7, 200, 2000])('stays under 8 KiB after %i steps, and carries the exit, the usage and the step count, no path', (steps) => {
    expect(JSON.stringify(longRun(steps)).length).toBeGreaterThan(steps * 9000);
    const { output, bytes } = finalOf(steps);

    expect(bytes).toBeLessThan(BOUND);
    expect(JSON.stringify(output)).not.toContain('/logs/');
    expect(output).toMatchObject({
      message: '[TASK FINISHED] LimitsExceeded',
      exit_status: 'LimitsExceeded',
      usage: { llm_requests: steps },
      trajectory_summary: { info: { summary: { steps } }, messages: [] },
    });
    expect(output).not.toHaveProperty('trajectory');
    expect(output).not.toHaveProperty('trajectory_document');
    // Our green agent reads it as the run's exit and records the summary as its trajectory.
    expect(parseSolverExit([output])?.trajectory?.document?.info.summary?.steps).toBe(steps);
  });
});
