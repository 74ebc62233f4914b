import type { CommandResult } from '@arvo-rca/sandbox';
import type { TemplateVars, Trajectory } from '@arvo-rca/common';
import { bashActions, LOC_JSON_PATH } from '@arvo-rca/common';
import { MAX_SPAN_LINES, validateLocJson, WANTED_LOCATIONS } from '@arvo-rca/loc-json';
import { errorMessage } from '../models/model-errors';
import type { ChatMessage, ChatRole, Model, ModelReply } from '../models/model';
import { UsageTotals } from '../models/usage';
import { DEFAULT_AGENT_CONFIG, type AgentConfig } from './agent-config';
import {
  AgentExit,
  Correction,
  EnvironmentError,
  FormatError,
  FormatErrorsExceeded,
  LimitsExceeded,
  ModelError,
  Submitted,
  SubmissionError,
  TimeExceeded,
  UncaughtError,
} from './agent-errors';
import type { TemplateName } from './agent-templates';
import type { AgentOptions, AgentResult, AgentTask, CommandRecord, ModelCallRecord } from './agent-types';
import type { TaskEnvironment } from './task-environment';
import { buildTrajectory } from './trajectory';

/** The command output that submits: the task's own way, as its description tells it. */
export const SUBMIT_MARKER = 'COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';
export const PROMPT_VARS: TemplateVars = { locJsonPath: LOC_JSON_PATH, maxCandidates: WANTED_LOCATIONS, maxSpanLines: MAX_SPAN_LINES };

/**
 * mini-swe-agent's loop for one task context: ask the model, run the one bash block of its reply,
 * show it the result, until it submits or a limit ends the run. Steps throw to change course; the
 * one catch in run() turns a Correction into a message and an AgentExit into the exit status; anything
 * else is recorded as an UncaughtError exit and thrown on. After every step the run so far goes to its sink.
 */
export class DefaultAgent {
  readonly messages: ChatMessage[] = [];
  /** Every command run for this task, in order; never trimmed. */
  readonly history: CommandRecord[] = [];
  readonly usage = new UsageTotals();
  /** Tokens and cost of each model call, in order. */
  readonly calls: ModelCallRecord[] = [];
  private readonly config: AgentConfig;
  private readonly clock: () => number;
  private task?: AgentTask;
  private exit?: AgentExit;
  private startedAt = 0;
  private formatErrors = 0;
  private submissionRejections = 0;

  constructor(
    private readonly model: Model,
    private readonly environment: TaskEnvironment,
    private readonly options: AgentOptions,
  ) {
    this.config = options.config ?? DEFAULT_AGENT_CONFIG;
    this.clock = options.clock ?? Date.now;
  }

  async run(task: AgentTask): Promise<AgentResult> {
    if (this.task) throw new Error('a DefaultAgent runs one task; create one per context');
    this.task = task;
    this.startedAt = this.clock();
    this.add('system', this.render('system'));
    this.add('user', this.render('instance', { task: task.description }));
    let exit: AgentExit | undefined;
    while (!exit) {
      try {
        await this.step();
      } catch (error) {
        this.handle(error);
      } finally {
        exit = this.exit;
        const progress = { steps: this.usage.calls, lastCommand: this.history.at(-1)?.command, exitStatus: exit?.status, usage: this.usage.snapshot() };
        await this.options.sink?.save(this.trajectory(), progress);
      }
    }
    return { exitStatus: exit.status, message: exit.message, submission: this.submission(), usage: this.usage.snapshot() };
  }

  /** The run so far, in mini-swe-agent's trajectory layout. */
  trajectory(): Trajectory {
    return buildTrajectory({
      exitStatus: this.exit?.status ?? null,
      submission: this.submission(),
      usage: this.usage.snapshot(),
      config: this.config,
      modelName: this.model.name,
      task: this.task,
      history: this.history,
      calls: this.calls,
      messages: this.messages,
    });
  }

  private async step(): Promise<void> {
    this.checkLimits();
    const reply = await this.query();
    const result = await this.execute(this.parseAction(reply), 'model');
    await this.checkSubmission(result);
    this.add('user', this.observe(result));
  }

  private handle(error: unknown): void {
    if (error instanceof Correction) {
      if (error instanceof FormatError) this.formatErrors += 1;
      this.add('user', error.message);
    } else if (error instanceof AgentExit) {
      this.exit = error;
      this.add('user', error.message);
    } else {
      // The trajectory says why the run ended, as mini-swe-agent's does; the caller still gets the error.
      this.exit = new UncaughtError(error);
      this.add('user', this.exit.message);
      throw error;
    }
  }

  private checkLimits(): void {
    const { stepLimit, costLimit, wallTimeLimitS, formatErrorLimit } = this.config;
    const { calls, cost } = this.usage;
    if (formatErrorLimit > 0 && this.formatErrors >= formatErrorLimit) {
      throw new FormatErrorsExceeded(`${this.formatErrors} replies in a row ran nothing (limit ${formatErrorLimit})`);
    }
    if (stepLimit > 0 && calls >= stepLimit) throw new LimitsExceeded(`step limit reached: ${calls} model calls (limit ${stepLimit})`);
    if (costLimit > 0 && cost !== null && cost >= costLimit) throw new LimitsExceeded(`cost limit reached: $${cost.toFixed(4)} (limit $${costLimit})`);
    if (wallTimeLimitS > 0 && this.clock() - this.startedAt >= wallTimeLimitS * 1000) throw this.timeExceeded();
  }

  private async query(): Promise<ModelReply> {
    const limitMs = this.config.wallTimeLimitS * 1000;
    // The run's deadline for this call; its timer goes when the call ends (AbortSignal.timeout's stayed, with the task's log scope, until the run's limit).
    const deadline = limitMs > 0 ? new AbortController() : undefined;
    const timer =
      deadline &&
      setTimeout(
        () => deadline.abort(new DOMException('the run reached its wall time limit', 'TimeoutError')),
        Math.max(1, this.startedAt + limitMs - this.clock()),
      ).unref();
    const signal = deadline?.signal;
    let reply: ModelReply;
    try {
      reply = await this.model.query(this.messages, { signal });
    } catch (error) {
      if (signal?.aborted) throw this.timeExceeded();
      const code = (error as { code?: unknown }).code;
      throw new ModelError(`the model failed${typeof code === 'string' ? ` (${code})` : ''}: ${errorMessage(error)}`);
    } finally {
      clearTimeout(timer);
    }
    this.usage.add(reply.usage, reply.cost);
    this.options.processUsage?.add(reply.usage, reply.cost);
    this.calls.push({ ...reply.usage, cost: reply.cost, truncated: reply.truncated });
    this.add('assistant', reply.content);
    if (reply.truncated) throw new FormatError(this.render('truncated-reply'));
    return reply;
  }

  private parseAction(reply: ModelReply): string {
    const actions = bashActions(reply.content);
    if (actions.length !== 1) throw new FormatError(this.render('format-error', { count: actions.length, none: actions.length === 0 }));
    this.formatErrors = 0;
    return actions[0];
  }

  private async execute(command: string, by: CommandRecord['by']): Promise<CommandResult> {
    let result: CommandResult;
    try {
      result = await this.environment.execute(command);
    } catch (error) {
      throw new EnvironmentError(`the environment failed to run a command: ${errorMessage(error)}`);
    }
    this.history.push({ step: this.usage.calls, command, by, ...result });
    return result;
  }

  // Submission is the marker on the output's first line with returncode 0; loc.json must then hold up.
  // A task that wants no loc.json takes the output after the marker line as the submission, as mini-swe-agent does.
  private async checkSubmission(result: CommandResult): Promise<void> {
    const [first, ...rest] = result.output.trimStart().split('\n');
    if (result.returncode !== 0 || first.trim() !== SUBMIT_MARKER) return;
    if (this.task?.submits === 'output') {
      await this.finishEnvironment();
      throw new Submitted(rest.join('\n'), rest.join('\n'));
    }
    const read = await this.execute(`cat ${LOC_JSON_PATH}`, 'agent');
    const readable = read.returncode === 0;
    const problems = readable ? (this.options.checkLocJson ?? validateLocJson)(read.output) : [read.output.trim() || `cat exited with ${read.returncode}`];
    if (problems.length > 0 && this.submissionRejections < this.config.submissionCorrections) {
      this.submissionRejections += 1;
      const lastChance = this.submissionRejections === this.config.submissionCorrections;
      const problem = readable ? 'is not acceptable' : 'cannot be read';
      throw new SubmissionError(this.render('submission-rejected', { problem, problems: problems.map((p) => `- ${p}`).join('\n'), lastChance }));
    }
    await this.finishEnvironment();
    throw new Submitted(readable ? read.output : '', readable ? read.output : `submitted without a readable ${LOC_JSON_PATH}`);
  }

  private async finishEnvironment(): Promise<void> {
    try {
      await this.environment.finish();
    } catch (error) {
      throw new EnvironmentError(`the environment failed to take the submission: ${errorMessage(error)}`);
    }
  }

  private observe(result: CommandResult): string {
    return this.render('observation', observationVars(result, this.config));
  }

  private timeExceeded(): TimeExceeded {
    return new TimeExceeded(`wall-time limit reached: ${Math.round((this.clock() - this.startedAt) / 1000)} s (limit ${this.config.wallTimeLimitS} s)`);
  }

  private submission(): string {
    return this.exit instanceof Submitted ? this.exit.submission : '';
  }

  private add(role: ChatRole, content: string): void {
    this.messages.push({ role, content });
  }

  private render(name: TemplateName, vars: TemplateVars = {}): string {
    return this.options.templates.render(name, { ...PROMPT_VARS, ...vars });
  }
}

/** What the observation template shows of a command's result: all of it, or its head and tail when it is long. */
export function observationVars(result: CommandResult, config: AgentConfig): TemplateVars {
  const { output } = result;
  const { outputLimitChars, outputHeadChars, outputTailChars } = config;
  return {
    returncode: result.returncode,
    timedOut: result.timedOut !== undefined,
    truncated: output.length > outputLimitChars,
    output,
    head: output.slice(0, outputHeadChars),
    tail: output.slice(Math.max(outputHeadChars, output.length - outputTailChars)),
    elidedChars: Math.max(0, output.length - outputHeadChars - outputTailChars),
  };
}
