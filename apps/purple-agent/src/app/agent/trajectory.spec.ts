import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ScriptedModel } from '../models/scripted-model';
import { AgentTemplates } from './agent-templates';
import { DefaultAgent } from './default-agent';
import { LocalWorkspaceEnvironment } from './local-workspace-environment.testing';
import { trajectoryPath, type Trajectory } from './trajectory';

const APP_TSCONFIG = resolve(__dirname, '../../../tsconfig.app.json');
const bash = (command: string): string => `THOUGHT: go\n\n\`\`\`bash\n${command}\n\`\`\``;

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((done) => setImmediate(done));
  }
  return false;
}

describe('trajectories', () => {
  let logDir: string;
  beforeEach(async () => {
    logDir = await mkdtemp(join(tmpdir(), 'purple-trajectories-'));
  });
  afterEach(async () => {
    await rm(logDir, { recursive: true, force: true });
  });

  it('are named <run log dir>/trajectories/<source>_<id>-<context>.traj.json', () => {
    expect(trajectoryPath('/logs/log_x', 'arvo:14368', 'c0ffee-1')).toBe('/logs/log_x/trajectories/arvo_14368-c0ffee-1.traj.json');
    expect(trajectoryPath('/logs', 'sample:2', '../../etc')).toBe('/logs/trajectories/sample_2-.._.._etc.traj.json');
  });

  it('are on disk after every step, in mini-swe-agent layout, and end with the exit status and submission', async () => {
    const environment = await LocalWorkspaceEnvironment.empty();
    const file = trajectoryPath(logDir, 'sample:1', 'ctx');
    const seen: { calls: number; messages: number }[] = [];
    try {
      const loc = JSON.stringify({ reasoning: 'r', locations: [{ file: 'a.c', function: 'f', line_start: 1, line_end: 2, description: 'd' }] });
      const agent = new DefaultAgent({
        model: new ScriptedModel(['no block', bash(`echo '${loc}' > /workspace/shared/loc.json`), bash('echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT')]),
        environment,
        templates: await AgentTemplates.load(),
        trajectoryFile: file,
        onStep: () => {
          const saved = JSON.parse(readFileSync(file, 'utf8')) as Trajectory;
          seen.push({ calls: saved.info.model_stats.api_calls, messages: saved.messages.length });
        },
      });

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

  it('stay valid JSON when the process is killed with SIGKILL while a write is under way', async () => {
    const file = trajectoryPath(logDir, 'sample:1', 'endless');
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
      // Kill it while a write is under way: its temporary file is there.
      expect(await waitFor(() => readdirSync(join(logDir, 'trajectories')).some((name) => name.endsWith('.tmp')), 10_000)).toBe(true);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');

      const saved = JSON.parse(readFileSync(file, 'utf8')) as Trajectory;
      expect(saved.trajectory_format).toBe('mini-swe-agent-1');
      expect(saved.info.exit_status).toBeNull();
      expect(saved.info.model_stats.api_calls).toBeGreaterThanOrEqual(20);
      expect(saved.messages).toHaveLength(2 + 2 * saved.info.model_stats.api_calls);
      expect(readdirSync(join(logDir, 'trajectories')).filter((name) => !name.endsWith('.tmp'))).toEqual(['sample_1-endless.traj.json']);
    } finally {
      child.kill('SIGKILL');
      if (workspace && existsSync(workspace)) await rm(workspace, { recursive: true, force: true });
    }
  }, 60_000);
});
