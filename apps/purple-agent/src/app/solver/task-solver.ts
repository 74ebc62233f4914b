import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Trajectory } from '@arvo-rca/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { agentConfigFrom, type AgentConfig } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import type { AgentResult, AgentTask, StepProgress } from '../agent/agent-types';
import { DefaultAgent } from '../agent/default-agent';
import type { TaskEnvironment } from '../agent/task-environment';
import { TrajectoryFileSink, trajectoryPath, TrajectoryWriter } from '../agent/trajectory';
import { AgentClis } from '../cli/agent-clis';
import { ModelFactory } from '../models/model-factory';
import { UsageTotals } from '../models/usage';
import { PurpleConfig } from '../purple-config';

/** A run's result with its whole trajectory, which travels with the solver's exit. */
export interface SolvedTask extends AgentResult {
  trajectory: Trajectory;
}

/** Runs one DefaultAgent on a task, in whatever environment the task's commands go to. */
@Injectable()
export class TaskSolver {
  private readonly limits: AgentConfig;

  constructor(
    private readonly models: ModelFactory,
    private readonly templates: AgentTemplates,
    private readonly trajectories: TrajectoryWriter,
    private readonly processUsage: UsageTotals,
    private readonly logging: WinstonLoggerFactory,
    private readonly clis: AgentClis,
    @Inject(PurpleConfig) config: PurpleConfig,
  ) {
    this.limits = agentConfigFrom(config);
  }

  /** The solver's model: our agent's, or the CLI agent's (`<cli>@<version>/<model>`). */
  get modelName(): string {
    return this.clis.modelName ?? this.models.modelName;
  }

  /** Where the run of this task writes its trajectory. */
  trajectoryFile(task: Pick<AgentTask, 'taskId' | 'contextId'>): string {
    return trajectoryPath(this.logging.runDirectory, task.taskId, task.contextId);
  }

  /** Runs the task to its end; `canceled` ends a CLI agent's process at once (our own agent ends at its next command). */
  async solve(task: AgentTask, environment: TaskEnvironment, onStep: (progress: StepProgress) => void, canceled?: AbortSignal): Promise<SolvedTask> {
    const sink = new TrajectoryFileSink(this.trajectoryFile(task), {
      writer: this.trajectories,
      logger: new Logger(`agent ${task.taskId} ${task.contextId.slice(0, 8)}`),
      onStep,
    });
    if (this.clis.cli) {
      const cli = await this.clis.create(environment, { config: this.limits, templates: this.templates, sink, processUsage: this.processUsage });
      const result = await cli.run(task, canceled);
      return { ...result, trajectory: cli.trajectory() };
    }
    const agent = new DefaultAgent(this.models.create(), environment, {
      templates: this.templates,
      config: this.limits,
      sink,
      processUsage: this.processUsage,
    });
    const result = await agent.run(task);
    return { ...result, trajectory: agent.trajectory() };
  }
}
