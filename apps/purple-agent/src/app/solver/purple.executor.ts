import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TaskState } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { A2aClientFactory, formatSolverExit, formatSolverStep, formatTaskKey, parseTaskRequest, TaskEvents, type SolverExit, type SolverUsage } from '@arvo-rca/a2a-protocol';
import { validateLocJson } from '@arvo-rca/rca-eval';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { agentConfigFrom } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import type { AgentResult, StepProgress } from '../agent/agent-types';
import { DefaultAgent } from '../agent/default-agent';
import { trajectoryPath, TrajectoryWriter } from '../agent/trajectory';
import { ModelFactory } from '../models/model-factory';
import { UsageTotals, type UsageSnapshot } from '../models/usage';
import type { PurpleEnvironment } from '../purple-environment';
import { GreenTaskEnvironment } from './green-task-environment';
import { RUN_LOG_DIR } from './solver.tokens';

/**
 * The purple agent's A2A entry: a task description from a green agent starts one DefaultAgent on
 * that context, whose commands go back to the green agent; the answer is a stream with a `working`
 * update per step and a final status carrying the exit status and token totals, and the exit status
 * with its reason as a data part for the assessor's record. Contexts share nothing but the
 * process-wide usage totals.
 */
@Injectable()
export class PurpleExecutor implements AgentExecutor {
  private readonly logger = new Logger(PurpleExecutor.name);
  private readonly running = new Set<string>();

  constructor(
    private readonly models: ModelFactory,
    private readonly templates: AgentTemplates,
    private readonly trajectories: TrajectoryWriter,
    private readonly processUsage: UsageTotals,
    private readonly peers: A2aClientFactory,
    @Inject(RUN_LOG_DIR) private readonly runLogDir: string,
    @Inject(ConfigService) private readonly config: ConfigService<PurpleEnvironment, true>,
    private readonly logging: WinstonLoggerFactory,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const events = new TaskEvents(request, bus);
    const { contextId } = request;
    if (this.running.has(contextId)) return events.reply('This context already has a task running; one task per context.');
    this.running.add(contextId);
    try {
      const task = parseTaskRequest(events.userText());
      const taskId = task ? formatTaskKey(task) : `unknown:${contextId.slice(0, 8)}`;
      events.start(`${taskId}: solving with ${this.models.modelName}`);
      // Every line of the run lands in the task's log file, beside the green agent's lines about it.
      const started = Date.now();
      const result = await this.logging.runInTask({ taskId, contextId }, async () => {
        this.logger.log(`solving ${taskId} with ${this.models.modelName}`);
        const outcome = await this.solve(taskId, contextId, events.userText(), (progress) => {
          this.logger.log(describeStep(progress));
          events.progress(describeStep(progress));
        });
        this.logger.log(describeResult(outcome));
        return outcome;
      });
      const failed = result.exitStatus === 'ModelError' || result.exitStatus === 'EnvironmentError';
      events.end(failed ? TaskState.TASK_STATE_FAILED : TaskState.TASK_STATE_COMPLETED, describeResult(result), formatSolverExit(solverExitOf(result, (Date.now() - started) / 1000)));
    } finally {
      this.running.delete(contextId);
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.logger.warn(`cancel of task ${taskId} asked; a run ends at its limits`);
    bus.finished();
  }

  private solve(taskId: string, contextId: string, description: string, onStep: (progress: StepProgress) => void): Promise<AgentResult> {
    const green = this.peers.peer(this.config.get('GREEN_AGENT_URL', { infer: true }));
    const agent = new DefaultAgent({
      model: this.models.create(),
      environment: new GreenTaskEnvironment(green, contextId, this.config.get('GREEN_CALL_TIMEOUT_S', { infer: true }) * 1000),
      templates: this.templates,
      config: agentConfigFrom({
        STEP_LIMIT: this.config.get('STEP_LIMIT', { infer: true }),
        COST_LIMIT: this.config.get('COST_LIMIT', { infer: true }),
        WALL_TIME_LIMIT_S: this.config.get('WALL_TIME_LIMIT_S', { infer: true }),
        FORMAT_ERROR_LIMIT: this.config.get('FORMAT_ERROR_LIMIT', { infer: true }),
      }),
      trajectoryFile: trajectoryPath(this.runLogDir, taskId, contextId),
      trajectoryWriter: this.trajectories,
      checkLocJson: (text) => validateLocJson(text),
      processUsage: this.processUsage,
      logger: new Logger(`agent ${taskId} ${contextId.slice(0, 8)}`),
      onStep,
    });
    return agent.run({ taskId, contextId, description });
  }
}

function describeStep(progress: StepProgress): string {
  const { usage } = progress;
  const detail = `tokens in ${usage.input} out ${usage.output}, $${usage.cost.toFixed(4)}`;
  return formatSolverStep({ step: progress.steps, command: progress.lastCommand ?? '(no command)', detail });
}

function describeResult(result: AgentResult): string {
  const { usage } = result;
  const tokens = `tokens in ${usage.input} out ${usage.output} cache read ${usage.cacheRead} write ${usage.cacheWrite}, ${usage.calls} calls, $${usage.cost.toFixed(4)}`;
  return `${result.exitStatus}: ${result.exitStatus === 'Submitted' ? 'loc.json submitted' : result.message} | ${tokens}`;
}

// A submission's message is the loc.json text, which the assessor reads for itself.
function solverExitOf(result: AgentResult, seconds: number): SolverExit {
  const usage = solverUsageOf(result.usage, seconds);
  return result.exitStatus === 'Submitted' ? { exitStatus: 'Submitted', usage } : { exitStatus: result.exitStatus, reason: result.message, usage };
}

// Our token counts under CyberGym's names: `input` excludes what was read from or written to the cache.
function solverUsageOf(usage: UsageSnapshot, seconds: number): SolverUsage {
  return {
    input_tokens: usage.input,
    output_tokens: usage.output,
    cache_read_tokens: usage.cacheRead,
    cache_creation_tokens: usage.cacheWrite,
    est_usd_cost: Number(usage.cost.toFixed(6)),
    llm_requests: usage.calls,
    time_cost_sec: Number(seconds.toFixed(3)),
  };
}
