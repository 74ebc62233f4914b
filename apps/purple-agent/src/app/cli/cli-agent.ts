import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandResult } from '@arvo-rca/sandbox';
import { LOC_JSON_PATH, type Trajectory } from '@arvo-rca/common';
import { validateLocJson } from '@arvo-rca/loc-json';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from '../agent/agent-config';
import type { AgentTemplates } from '../agent/agent-templates';
import { AgentExit, EnvironmentError, LimitsExceeded, ModelError, Submitted, TimeExceeded } from '../agent/agent-errors';
import type { AgentResult, AgentTask, CommandRecord, ModelCallRecord, TrajectorySink } from '../agent/agent-types';
import type { TaskEnvironment } from '../agent/task-environment';
import { observationVars, SUBMIT_MARKER } from '../agent/default-agent';
import { buildTrajectory } from '../agent/trajectory';
import type { ChatMessage } from '../models/model';
import { errorMessage } from '../models/model-errors';
import { costOf, priceFor, type PriceTable } from '../models/model-prices';
import { UsageTotals } from '../models/usage';
import type { AgentCli, CliEvent, CliModelUsage } from './agent-cli';
import { CliProcess } from './cli-process';
import { cliPrompt } from './cli-prompt';
import { TASK_MCP_NAME, TaskMcpServer, type ToolAnswer } from './task-mcp-server';
import { TrajectorySaves } from './trajectory-saves';

export interface CliAgentOptions {
  cli: AgentCli;
  /** The CLI's installed package folder. */
  packageDir: string;
  /** The model the CLI is told to use; its own default when unset. */
  model?: string;
  /** The purple agent's environment, where the CLI's key and endpoint are read. */
  env: Readonly<Record<string, string | undefined>>;
  prices: PriceTable;
  /** The observation template shows each command's result as it does to our own agent. */
  templates: AgentTemplates;
  config?: AgentConfig;
  sink?: TrajectorySink;
  processUsage?: UsageTotals;
  checkLocJson?: (text: string) => string[];
  clock?: () => number;
}

// Once the submission is taken the CLI may end its turn (and report its usage) on its own for this long.
const SUBMIT_GRACE_MS = 15_000;

/**
 * Runs a coding agent's CLI, unchanged, on one task: its only tools are the task's MCP server, whose
 * `shell` runs each command in the task's environment and whose `submit` takes loc.json as our own agent
 * does. The limits hold as for our agent; reaching one, a cancel, or the submission ends the CLI's whole
 * process tree. Its events are the trajectory; its usage reports are the task's usage.
 */
export class CliAgent {
  readonly history: CommandRecord[] = [];
  readonly usage = new UsageTotals();
  readonly calls: ModelCallRecord[] = [];
  readonly messages: ChatMessage[] = [];
  private readonly config: AgentConfig;
  private readonly clock: () => number;
  private exit?: AgentExit;
  private task?: AgentTask;
  private process?: CliProcess;
  private startedAt = 0;
  private rejections = 0;
  private finalText = '';
  private readonly saves = new TrajectorySaves(() => this.writeTrajectory());

  constructor(
    private readonly environment: TaskEnvironment,
    private readonly options: CliAgentOptions,
  ) {
    this.config = options.config ?? DEFAULT_AGENT_CONFIG;
    this.clock = options.clock ?? Date.now;
  }

  get modelName(): string {
    return `${this.options.cli.name}/${this.options.model ?? 'default'}`;
  }

  async run(task: AgentTask, canceled?: AbortSignal): Promise<AgentResult> {
    if (this.task) throw new Error('a CliAgent runs one task; create one per context');
    this.task = task;
    this.startedAt = this.clock();
    const home = mkdtempSync(join(tmpdir(), 'arvo-rca-cli-home-'));
    const workdir = mkdtempSync(join(tmpdir(), 'arvo-rca-cli-work-'));
    const mcp = await TaskMcpServer.start({ shell: (command) => this.shell(command), submit: () => this.submit(), answered: () => this.saves.answered() });
    const timers: NodeJS.Timeout[] = [];
    const onCancel = (): void => this.stop(new EnvironmentError('the task was canceled'));
    try {
      const prompt = cliPrompt(task.description);
      this.messages.push({ role: 'user', content: prompt });
      const { cli, packageDir, model, env } = this.options;
      const launch = cli.launch({ prompt, mcpUrl: mcp.url, mcpToken: mcp.token, mcpName: TASK_MCP_NAME, home, workdir, packageDir, model, env });
      const reader = launch.read ?? ((line: string) => cli.read(line));
      this.process = CliProcess.start({ launch, cwd: workdir, folders: [home, workdir], onLine: (line) => this.read(reader, line) });
      const limitS = this.config.wallTimeLimitS;
      if (limitS > 0) timers.push(setTimeout(() => this.stop(this.timeExceeded()), limitS * 1000));
      if (canceled?.aborted) onCancel();
      canceled?.addEventListener('abort', onCancel, { once: true });
      const end = await this.process.ended;
      this.exit ??= await this.endedOnItsOwn(end.code, end.signal, end.stderr);
    } finally {
      canceled?.removeEventListener('abort', onCancel);
      for (const timer of timers) clearTimeout(timer);
      this.process?.kill();
      await mcp.close();
      rmSync(home, { recursive: true, force: true });
      rmSync(workdir, { recursive: true, force: true });
    }
    await this.saves.save();
    const exit = this.exit;
    return { exitStatus: exit.status, message: exit.message, submission: this.submission(), usage: this.usage.snapshot() };
  }

  trajectory(): Trajectory {
    return buildTrajectory({
      exitStatus: this.exit?.status ?? null,
      submission: this.submission(),
      usage: this.usage.snapshot(),
      config: this.config,
      modelName: this.modelName,
      task: this.task,
      history: this.history,
      calls: this.calls,
      messages: this.messages,
    });
  }

  private async shell(command: string): Promise<ToolAnswer> {
    if (this.exit) return { text: `the task is over: ${this.exit.message}`, isError: true };
    this.checkLimits();
    if (this.exit) return { text: `the task is over: ${(this.exit as AgentExit).message}`, isError: true };
    const result = await this.execute(command, 'model');
    if (!result) return { text: 'the command could not run: the task has ended', isError: true };
    const [first] = result.output.trimStart().split('\n');
    // The task's own way to submit, as its description tells it: the marker alone, with returncode 0.
    if (result.returncode === 0 && first.trim() === SUBMIT_MARKER) return this.submit();
    // The trajectory is written once the answer has left: the CLI does not wait for the write.
    this.saves.stepped();
    return { text: this.options.templates.render('observation', observationVars(result, this.config)), isError: false };
  }

  /** Takes loc.json when it holds up; else says why, up to the corrections allowed (none when `last`). */
  private async submit(last = false): Promise<ToolAnswer> {
    if (this.exit) return { text: `the task is over: ${this.exit.message}`, isError: true };
    if (this.task?.submits === 'output') return this.take('');
    const read = await this.execute(`cat ${LOC_JSON_PATH}`, 'agent');
    if (!read) return { text: 'the submission could not be read: the task has ended', isError: true };
    const readable = read.returncode === 0;
    const problems = readable ? (this.options.checkLocJson ?? validateLocJson)(read.output) : [read.output.trim() || `cat exited with ${read.returncode}`];
    if (problems.length > 0 && !last && this.rejections < this.config.submissionCorrections) {
      this.rejections += 1;
      const problem = readable ? 'is not acceptable' : 'cannot be read';
      return { text: `${LOC_JSON_PATH} ${problem}; fix it and submit again:\n${problems.map((p) => `- ${p}`).join('\n')}`, isError: true };
    }
    return this.take(readable ? read.output : '', readable ? read.output : `submitted without a readable ${LOC_JSON_PATH}`);
  }

  private async take(submission: string, message = submission): Promise<ToolAnswer> {
    try {
      await this.environment.finish();
    } catch (error) {
      this.stop(new EnvironmentError(`the environment failed to take the submission: ${errorMessage(error)}`));
      return { text: 'the submission could not be taken', isError: true };
    }
    this.exit = new Submitted(submission, message);
    await this.saves.save();
    setTimeout(() => this.process?.kill(), SUBMIT_GRACE_MS).unref();
    return { text: 'Submitted. The task is over: end your turn now.', isError: false };
  }

  private async execute(command: string, by: CommandRecord['by']): Promise<CommandResult | undefined> {
    try {
      const result = await this.environment.execute(command);
      this.history.push({ step: this.usage.calls, command, by, ...result });
      return result;
    } catch (error) {
      this.stop(new EnvironmentError(`the environment failed to run a command: ${errorMessage(error)}`));
      return undefined;
    }
  }

  private read(reader: (line: string) => CliEvent[], line: string): void {
    let events: CliEvent[];
    try {
      events = reader(line);
    } catch {
      return;
    }
    for (const event of events) {
      if (event.kind === 'message') this.messages.push({ role: event.role, content: event.content });
      else if (event.kind === 'usage') this.count(event.usage);
      else this.finalText = event.text;
    }
    if (events.some((event) => event.kind === 'usage')) this.checkLimits();
  }

  private count(usage: CliModelUsage): void {
    const tokens = { input: usage.input, output: usage.output, cacheRead: usage.cacheRead, cacheWrite: usage.cacheWrite };
    const cost = usage.cost ?? costOf(tokens, priceFor(usage.model, this.options.prices));
    for (const total of [this.usage, this.options.processUsage]) total?.add(tokens, cost, usage.calls);
    this.calls.push({ ...tokens, cost, truncated: false });
  }

  /**
   * As our agent's loop: `stepLimit` steps each run their command, and the run ends before a step past them
   * (a model call past the limit, or a command past it, whichever the CLI's output shows first).
   */
  private checkLimits(): void {
    const { stepLimit, costLimit } = this.config;
    const commands = this.history.filter((record) => record.by === 'model').length;
    const { cost } = this.usage;
    if (stepLimit > 0 && (this.usage.calls > stepLimit || commands >= stepLimit)) {
      this.stop(new LimitsExceeded(`step limit reached: ${stepLimit} steps (limit ${stepLimit})`));
    } else if (costLimit > 0 && cost !== null && cost >= costLimit) {
      this.stop(new LimitsExceeded(`cost limit reached: $${cost.toFixed(4)} (limit $${costLimit})`));
    }
  }

  /** Ends the run with `exit`, the first one only, and the CLI's whole process tree with it. */
  private stop(exit: AgentExit): void {
    this.exit ??= exit;
    this.process?.kill();
  }

  /** The CLI ended without a submission: its turn is its answer when it ended well; else it failed. */
  private async endedOnItsOwn(code: number | null, signal: NodeJS.Signals | null, stderr: string): Promise<AgentExit> {
    const { name } = this.options.cli;
    if (code === 0) {
      await this.submit(true);
      return this.exit ?? new Submitted('', `${name} ended its turn without submitting: ${this.finalText.slice(0, 500)}`);
    }
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    return new ModelError(`${name} ended with ${signal ?? `exit code ${code}`} before submitting${tail ? `: ${tail}` : ''}`);
  }

  private timeExceeded(): TimeExceeded {
    return new TimeExceeded(`wall-time limit reached: ${Math.round((this.clock() - this.startedAt) / 1000)} s (limit ${this.config.wallTimeLimitS} s)`);
  }

  private submission(): string {
    return this.exit instanceof Submitted ? this.exit.submission : '';
  }

  private async writeTrajectory(): Promise<void> {
    const progress = { steps: this.usage.calls, lastCommand: this.history.at(-1)?.command, exitStatus: this.exit?.status, usage: this.usage.snapshot() };
    await this.options.sink?.save(this.trajectory(), progress);
  }
}
