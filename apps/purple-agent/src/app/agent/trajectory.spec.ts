import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ScriptedModel } from '../models/scripted-model';
import { UsageTotals } from '../models/usage';
import { DEFAULT_AGENT_CONFIG } from './agent-config';
import { AgentTemplates } from './agent-templates';
import { DefaultAgent } from './default-agent';
import { LocalWorkspaceEnvironment } from './local-workspace-environment.testing';
import type { Trajectory } from '@arvo-rca/common';
import { scratchFolder } from '@arvo-rca/common/testing';
import { buildTrajectory, TrajectoryFileSink, trajectoryPath, TrajectoryWriter, type RunState } from './trajectory';

const APP_TSCONFIG = resolve(__dirname, '../../../tsconfig.app.json');
const bash = (command: string): string => `THOUGHT: go\n\n\`\`\`bash\n${command}\n\`\`\``;

/** A run that grows by whole steps, as DefaultAgent's does, with an observation of `outputChars` a step. */
class GrowingRun {
  readonly state: RunState = {
    exitStatus: null,
    submission: '',
    usage: new UsageTotals().snapshot(),
    config: DEFAULT_AGENT_CONFIG,
    modelName: 'scripted',
    task: { taskId: 'sample:1', contextId: 'ctx', description: 'task' },
    history: [],
    calls: [],
    messages: [
      { role: 'system', content: 'You are a root-cause analyst.' },
      { role: 'user', content: 'Find the bug.' },
    ],
  };

  constructor(private readonly outputChars: number) {}

  step(): Trajectory {
    const { state } = this;
    const step = state.usage.llm_requests + 1;
    // 0.1 a call makes the total's digits grow and shrink (0.30000000000000004, then 0.4).
    state.usage = { ...state.usage, llm_requests: step, input_tokens: state.usage.input_tokens + 900, est_usd_cost: (state.usage.est_usd_cost ?? 0) + 0.1 };
    state.calls = [...state.calls, { input: 900, output: 40, cacheRead: 0, cacheWrite: 0, cost: 0.1, truncated: false }];
    const command = `sed -n '${step},${step + 40}p' src/é→🐛.c`;
    const output = `${step} → λ `.repeat(this.outputChars).slice(0, this.outputChars);
    state.history = [...state.history, { step, command, by: 'model', returncode: 0, output }];
    state.messages.push({ role: 'assistant', content: `THOUGHT: step ${step}\n\n\`\`\`bash\n${command}\n\`\`\`` }, { role: 'user', content: output });
    return buildTrajectory(state);
  }

  end(): Trajectory {
    this.state.exitStatus = 'Submitted';
    this.state.submission = '{"reasoning": "é", "locations": []}';
    this.state.messages.push({ role: 'user', content: 'Submitted' });
    return buildTrajectory(this.state);
  }
}

/** Bytes this process has passed to write(2) and its kin so far, as the kernel counts them. */
function bytesWrittenByProcess(): number {
  return Number(/^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
}

const parse = (file: string): Trajectory => JSON.parse(readFileSync(file, 'utf8')) as Trajectory;

describe('trajectories', () => {
  const logDir = scratchFolder('purple-trajectories-');

  it('are named <run log dir>/trajectories/<source>_<id>-<context>.traj.json', () => {
    expect(trajectoryPath('/logs/log_x', 'arvo:14368', 'c0ffee-1')).toBe('/logs/log_x/trajectories/arvo_14368-c0ffee-1.traj.json');
    expect(trajectoryPath('/logs', 'sample:2', '../../etc')).toBe('/logs/trajectories/sample_2-.._.._etc.traj.json');
  });

  it('parse after every step to the run so far, through runs that outgrow the room kept in the file', async () => {
    const file = trajectoryPath(logDir(), 'sample:1', 'ctx');
    const onDisk = new TrajectoryWriter().open(file);
    const run = new GrowingRun(300);
    let wholeWrites = 0;
    for (let step = 1; step <= 120; step++) {
      const trajectory = run.step();
      if ((await onDisk.save(trajectory)) >= statSync(file).size) wholeWrites += 1;
      expect(parse(file)).toEqual(trajectory);
    }
    expect(wholeWrites).toBeGreaterThanOrEqual(3); // the first, and the room outgrown at least twice
    const ended = run.end();
    await onDisk.save(ended);
    expect(parse(file)).toEqual(ended);
    // The last save writes the file compact: no room left in it.
    expect(readFileSync(file, 'utf8')).not.toMatch(/ {2}/);
    expect(readdirSync(join(logDir(), 'trajectories'))).toEqual(['sample_1-ctx.traj.json']);
  });

  it('write per step the bytes of that step, however long the run is', async () => {
    const file = trajectoryPath(logDir(), 'sample:1', 'ctx');
    const onDisk = new TrajectoryWriter().open(file);
    const run = new GrowingRun(3000);
    const steps: { written: number; reported: number; size: number }[] = [];
    for (let step = 1; step <= 200; step++) {
      const trajectory = run.step();
      const before = bytesWrittenByProcess();
      const reported = await onDisk.save(trajectory);
      steps.push({ written: bytesWrittenByProcess() - before, reported, size: statSync(file).size });
    }

    // Whole writes: the first, then one each time the info lists fill their room, which doubles.
    const whole = steps.filter((step) => step.written >= step.size);
    expect(whole.length).toBeLessThanOrEqual(4);
    // Every other step writes its reply, its observation (3000 characters), its info entries and the
    // rest of info: as much at step 200 as at step 2. The kernel sees that and 8 bytes more for each
    // wake-up of Node's thread pool, and a busy machine wakes it more often: the slack allows for 128
    // wake-ups, a tenth of one step's observation, so a step that rewrote the file would still show.
    const inPlace = steps.filter((step) => step.written < step.size);
    expect(inPlace.length).toBeGreaterThanOrEqual(196);
    // The count is the process's: a write of the test runner itself (its messages to the parent, a few KiB)
    // may land in a step now and then on a busy machine, never in more than a few of the 200.
    for (const step of inPlace) expect(step.written - step.reported).toBeGreaterThanOrEqual(0);
    const beyondSlack = inPlace.filter((step) => step.written - step.reported > 1024);
    expect(beyondSlack.length).toBeLessThanOrEqual(3);
    for (const step of beyondSlack) expect(step.written - step.reported).toBeLessThan(16 * 1024);
    const perStep = inPlace.map((step) => step.reported);
    expect(Math.max(...perStep)).toBeLessThan(1.1 * Math.min(...perStep));
    expect(Math.max(...perStep)).toBeLessThan(6000);
    // All in all, less than twice the final file, not the sum of its 200 versions.
    expect(steps.reduce((total, step) => total + step.written, 0)).toBeLessThan(2 * steps[199].size);
  });

  it('start a new file for a new run, and write the file whole again when it changed under them', async () => {
    const file = trajectoryPath(logDir(), 'sample:1', 'ctx');
    await mkdir(join(logDir(), 'trajectories'));
    await writeFile(file, `{"an earlier run": "${'x'.repeat(100_000)}"}`);
    const onDisk = new TrajectoryWriter().open(file);
    const run = new GrowingRun(100);

    await onDisk.save(run.step());
    expect(parse(file)).toEqual(buildTrajectory(run.state));
    await truncate(file, 10);
    await onDisk.save(run.step());
    expect(parse(file)).toEqual(buildTrajectory(run.state));
    await rm(file);
    await onDisk.save(run.step());
    expect(parse(file)).toEqual(buildTrajectory(run.state));
    await onDisk.save(run.step());
    expect(parse(file)).toEqual(buildTrajectory(run.state));
  });

  it('are on disk after every step, in mini-swe-agent layout, and end with the exit status and submission', async () => {
    const environment = await LocalWorkspaceEnvironment.empty();
    const file = trajectoryPath(logDir(), 'sample:1', 'ctx');
    const seen: { calls: number; messages: number }[] = [];
    try {
      const loc = JSON.stringify({ reasoning: 'r', locations: [{ file: 'a.c', function: 'f', line_start: 1, line_end: 2, description: 'd' }] });
      const model = new ScriptedModel(['no block', bash(`echo '${loc}' > /workspace/shared/loc.json`), bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')]);
      const sink = new TrajectoryFileSink(file, {
        onStep: () => {
          const saved = JSON.parse(readFileSync(file, 'utf8')) as Trajectory;
          seen.push({ calls: saved.info.model_stats.api_calls, messages: saved.messages.length });
        },
      });
      const agent = new DefaultAgent(model, environment, { templates: await AgentTemplates.load(), sink });

      const result = await agent.run({ taskId: 'sample:1', contextId: 'ctx', description: 'task' });

      expect(seen).toEqual([
        { calls: 1, messages: 4 },
        { calls: 2, messages: 6 },
        { calls: 3, messages: 8 },
      ]);
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Trajectory;
      expect(saved.trajectory_format).toBe('mini-swe-agent-1');
      expect(saved.info).toMatchObject({
        exit_status: 'Submitted',
        submission: `${loc}\n`,
        model_stats: { instance_cost: 0, api_calls: 3 },
        config: { agent: { stepLimit: 60 }, model: { model_name: 'scripted' }, environment: { task_id: 'sample:1', context_id: 'ctx' } },
      });
      expect(saved.info.commands.map((command) => command.by)).toEqual(['model', 'model', 'agent']);
      expect(saved.info.model_calls).toHaveLength(3);
      expect(saved.messages).toEqual(agent.messages);
      expect(result.exitStatus).toBe('Submitted');
    } finally {
      await environment.dispose();
    }
  });

  it('stay valid JSON, with the steps written so far, when the process is killed with SIGKILL mid-run', async () => {
    const file = trajectoryPath(logDir(), 'sample:1', 'endless');
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', join(__dirname, 'endless-run.testing.ts'), file], {
      env: { ...process.env, TSX_TSCONFIG_PATH: APP_TSCONFIG },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.once('exit', (_, signal) => done(signal)));
    let workspace = '';
    try {
      for await (const line of createInterface({ input: child.stdout })) {
        workspace ||= /^workspace (.+)$/.exec(line)?.[1] ?? '';
        if (line === 'step 20') break;
      }
      // Anywhere in a step: the child does little but build and write its steps.
      await new Promise((done) => setTimeout(done, Math.random() * 20));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      const saved = parse(file);
      expect(saved.trajectory_format).toBe('mini-swe-agent-1');
      expect(saved.info.exit_status).toBeNull();
      const calls = saved.info.model_stats.api_calls;
      expect(calls).toBeGreaterThanOrEqual(20);
      // A kill between the writes of a step leaves its messages on disk and not yet its count.
      expect([0, 2]).toContain(saved.messages.length - (2 + 2 * calls));
      expect(saved.messages.slice(2).map((message) => message.role)).toEqual(saved.messages.slice(2).map((_, index) => (index % 2 ? 'user' : 'assistant')));
      expect(readdirSync(join(logDir(), 'trajectories')).filter((name) => !name.endsWith('.tmp'))).toEqual(['sample_1-endless.traj.json']);
    } finally {
      child.kill('SIGKILL');
      if (workspace && existsSync(workspace)) await rm(workspace, { recursive: true, force: true });
    }
  }, 60_000);
});
