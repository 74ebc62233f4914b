/* eslint-disable @nx/enforce-module-boundaries -- this figure is the purple agent's CLI adapter, measured in-process as purple_step_overhead measures its loop. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult } from '@arvo-rca/sandbox';
import { LOC_JSON_PATH } from '@arvo-rca/common';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { DEFAULT_AGENT_CONFIG } from '../../../apps/purple-agent/src/app/agent/agent-config';
import { AgentTemplates } from '../../../apps/purple-agent/src/app/agent/agent-templates';
import type { TaskEnvironment } from '../../../apps/purple-agent/src/app/agent/task-environment';
import { TrajectoryFileSink, trajectoryPath } from '../../../apps/purple-agent/src/app/agent/trajectory';
import type { AgentCliName } from '../../../apps/purple-agent/src/app/cli/agent-cli';
import { AGENT_CLIS } from '../../../apps/purple-agent/src/app/cli/agent-clis';
import { CliAgent } from '../../../apps/purple-agent/src/app/cli/cli-agent';
import { agentCliCache, installedCli } from '../../../apps/purple-agent/src/app/cli/cli-install';
import { DEFAULT_PRICES } from '../../../apps/purple-agent/src/app/models/model-prices';
import { median, round } from '../report/bench-stats';
import { floorRun } from '../probes/cli-floor-run';
import { McpCallTimer, type SandboxGauge } from '../probes/mcp-call-timer';
import { measureMcpFloor, type McpFloor } from '../probes/mcp-floor';
import { InstantEnvironment, measurePurpleStep, Stopwatch } from './purple-step.bench';

export interface CliStepFigure {
  cli: AgentCliName;
  version: string;
  /** Median over every `shell` call of every run: the call's arrival to its answer leaving, less the sandbox's time. */
  step_ms: number;
  /** Our own agent's per-step overhead (purple_step_overhead's measure, over as many steps), taken between this CLI's runs. */
  ours_ms: number;
  step_vs_ours: number;
  /** The MCP SDK's own floor, taken between this CLI's runs: one `tools/call` of a bare SDK server in one session (as ours serves) ... */
  floor_ms: number;
  /** ... and with a new server per request (the SDK's stateless mode). */
  floor_stateless_ms: number;
  step_vs_floor: number;
  /** The same CLI, on the same script, against a bare McpServer with tools that answer at once over the task server's transport: this CLI's floor. */
  cli_floor_ms: number;
  /** The CLI's floor against our agent's step: under 1.5, the target can be met by some MCP server for this CLI; over it, by none. */
  cli_floor_vs_ours: number;
  /** The adapter over this CLI's floor: what is ours. */
  step_vs_cli_floor: number;
  /** The nearest alternative to the adapter's loopback HTTP: the same bare server on stdio, a child of the CLI (a product's would relay to the purple agent on top). */
  stdio_floor_ms: number;
  stdio_floor_vs_ours: number;
  /** The task's MCP server alone, its tools answering at once, called as the floor is: the SDK and our server, no CLI, no CliAgent. */
  task_server_ms: number;
  /** Median over the runs: the CLI's spawn to its first request to the model. */
  start_ms: number;
  /** `shell` calls measured (calls overlapping another request on the MCP server are left out). */
  calls: number;
}

export interface CliStepFigures {
  /** `shell` calls per run, and runs per CLI. */
  steps: number;
  runs: number;
  clis: CliStepFigure[];
}

const MODEL_MS = 50;
const TASK = { taskId: 'sample:1', contextId: 'bench-cli', description: 'Find the root cause of the crash in /workspace.' };

/** How each CLI names the task's tools, and its key and endpoint at the stand-in. */
const WIRING: Record<AgentCliName, { shell: string; submit: string; model: string; env: (llm: FakeLlmServer) => Record<string, string> }> = {
  'claude-code': {
    shell: 'mcp__task__shell',
    submit: 'mcp__task__submit',
    model: 'claude-sonnet-4-5',
    env: (llm) => ({ ANTHROPIC_API_KEY: 'sk-bench', ANTHROPIC_BASE_URL: llm.anthropicBaseUrl }),
  },
  codex: {
    shell: 'mcp__task__shell',
    submit: 'mcp__task__submit',
    model: 'gpt-5.5',
    env: (llm) => ({ OPENAI_API_KEY: 'sk-bench', OPENAI_BASE_URL: llm.openAiBaseUrl }),
  },
  'gemini-cli': {
    shell: 'mcp_task_shell',
    submit: 'mcp_task_submit',
    model: 'gemini-2.5-pro',
    env: (llm) => ({ GEMINI_API_KEY: 'sk-bench', GOOGLE_GEMINI_BASE_URL: llm.geminiBaseUrl }),
  },
};

/** The instant sandbox, counting the task's own commands apart from the submission's read of loc.json. */
class GaugedEnvironment implements TaskEnvironment, SandboxGauge {
  private readonly watch = new Stopwatch();
  private readonly inner = new InstantEnvironment(this.watch);
  private count = 0;

  execute(command: string): Promise<CommandResult> {
    if (!command.startsWith(`cat ${LOC_JSON_PATH}`)) this.count += 1;
    return this.inner.execute(command);
  }

  finish(): Promise<void> {
    return this.inner.finish();
  }

  spentMs(): number {
    return this.watch.spentMs;
  }

  commands(): number {
    return this.count;
  }
}

/**
 * Each CLI, real and at its pinned version, run by CliAgent as the purple agent runs it (its MCP server, the
 * observation template, the trajectory written after every step) on a scripted `steps`-command task against
 * a sandbox that answers at once. Before each of its runs, our own agent over as many steps and the MCP SDK's
 * floor, so that the machine's noise falls on all three alike.
 */
export async function measureCliStep(
  root: string,
  steps = 30,
  runs = 3,
  clis: readonly AgentCliName[] = ['claude-code', 'codex', 'gemini-cli'],
): Promise<CliStepFigures> {
  const templates = await AgentTemplates.load(join(root, 'apps', 'purple-agent', 'src', 'assets', 'templates'));
  const dir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-cli-'));
  try {
    const figures: CliStepFigure[] = [];
    for (const name of clis) {
      const cli = AGENT_CLIS[name];
      const packageDir = await installedCli(cli, agentCliCache());
      const timers: McpCallTimer[] = [];
      const ours: number[] = [];
      const floors: McpFloor[] = [];
      const cliFloors: number[] = [];
      const stdioFloors: number[] = [];
      // One warm-up run (the file cache, the CLI's first compile), then the measured ones.
      await oneRun(name, packageDir, templates, join(dir, `${name}-warm-up`), steps);
      for (let run = 1; run <= runs; run++) {
        ours.push((await measurePurpleStep(root, steps, 1)).median_ms);
        floors.push(await measureMcpFloor(steps));
        cliFloors.push(median(await oneFloorRun(name, packageDir, steps, 'http')));
        stdioFloors.push(median(await oneFloorRun(name, packageDir, steps, 'stdio')));
        timers.push(await oneRun(name, packageDir, templates, join(dir, `${name}-${run}`), steps));
      }
      const step = median(timers.flatMap((timer) => timer.overheadsMs));
      const floor = median(floors.map((one) => one.stateful));
      const cliFloor = median(cliFloors);
      figures.push({
        cli: name,
        version: cli.version,
        step_ms: round(step, 3),
        ours_ms: round(median(ours), 3),
        step_vs_ours: round(step / median(ours)),
        floor_ms: round(floor, 3),
        floor_stateless_ms: round(median(floors.map((one) => one.stateless)), 3),
        step_vs_floor: round(step / floor),
        cli_floor_ms: round(cliFloor, 3),
        cli_floor_vs_ours: round(cliFloor / median(ours)),
        step_vs_cli_floor: round(step / cliFloor),
        stdio_floor_ms: round(median(stdioFloors), 3),
        stdio_floor_vs_ours: round(median(stdioFloors) / median(ours)),
        task_server_ms: round(median(floors.map((one) => one.task_server)), 3),
        start_ms: round(median(timers.map((timer) => timer.startMs)), 1),
        calls: timers.reduce((sum, timer) => sum + timer.overheadsMs.length, 0),
      });
    }
    return { steps, runs, clis: figures };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function oneRun(name: AgentCliName, packageDir: string, templates: AgentTemplates, logDir: string, steps: number): Promise<McpCallTimer> {
  const wiring = WIRING[name];
  const llm = await scriptedModel(name, steps);
  try {
    const environment = new GaugedEnvironment();
    const timer = new McpCallTimer(environment);
    const agent = new CliAgent(environment, {
      cli: AGENT_CLIS[name],
      packageDir,
      model: wiring.model,
      env: { PATH: process.env['PATH'], ...wiring.env(llm) },
      prices: DEFAULT_PRICES,
      templates,
      config: { ...DEFAULT_AGENT_CONFIG, stepLimit: 0, costLimit: 0, wallTimeLimitS: 600 },
      sink: new TrajectoryFileSink(trajectoryPath(logDir, TASK.taskId, TASK.contextId)),
    });
    const result = await timer.during(() => agent.run(TASK));
    if (result.exitStatus !== 'Submitted' || environment.commands() !== steps)
      throw new Error(`the scripted ${name} run ended ${result.exitStatus} after ${environment.commands()} of ${steps} commands: ${result.message}`);
    return timer;
  } finally {
    await llm.close();
  }
}

/** The same CLI on the same script against a bare MCP server, on loopback HTTP or stdio: its floor. */
async function oneFloorRun(name: AgentCliName, packageDir: string, steps: number, transport: 'http' | 'stdio'): Promise<number[]> {
  const wiring = WIRING[name];
  const llm = await scriptedModel(name, steps);
  try {
    const env = { PATH: process.env['PATH'], ...wiring.env(llm) };
    return await floorRun({ cli: AGENT_CLIS[name], packageDir, model: wiring.model, env, description: TASK.description, steps }, transport);
  } finally {
    await llm.close();
  }
}

/** The stand-in of the CLI's provider, scripted for `steps` shell calls, a submission and a last reply. */
async function scriptedModel(name: AgentCliName, steps: number): Promise<FakeLlmServer> {
  const wiring = WIRING[name];
  const llm = await FakeLlmServer.start();
  // Each reply after MODEL_MS, a model far quicker than any real one: the step's trajectory write, which
  // follows its answer, is done by the next call, as it is behind a real model's.
  const usage = { usage: { input: 100, output: 10 }, delayMs: MODEL_MS };
  llm.script(
    ...Array.from({ length: steps }, (_, k) => toolCall(wiring.shell, { command: command(k + 1) }, usage)),
    toolCall(wiring.submit, {}, usage),
    reply('Submitted.', usage),
  );
  return llm;
}

function command(step: number): string {
  return `sed -n '${step * 10},${step * 10 + 40}p' /workspace/src-vul/tlvkit/src/index.c`;
}
