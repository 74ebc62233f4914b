import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Trajectory } from '@arvo-rca/common';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { agentConfigFrom, type AgentConfig } from '../agent/agent-config';
import { AgentTemplates } from '../agent/agent-templates';
import type { AgentResult, AgentTask, StepProgress } from '../agent/agent-types';
import { DefaultAgent } from '../agent/default-agent';
import type { TaskEnvironment } from '../agent/task-environment';
import { TrajectoryFileSink, trajectoryPath, TrajectoryWriter } from '../agent/trajectory';
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
    @Inject(PurpleConfig) config: PurpleConfig,
  ) {
    this.limits = agentConfigFrom(config);
  }

  get modelName(): string {
    return this.models.modelName;
  }

  /** Where the run of this task writes its trajectory. */
  trajectoryFile(task: Pick<AgentTask, 'taskId' | 'contextId'>): string {
    return trajectoryPath(this.logging.runDirectory, task.taskId, task.contextId);
  }

  async solve(task: AgentTask, environment: TaskEnvironment, onStep: (progress: StepProgress) => void): Promise<SolvedTask> {
    const sink = new TrajectoryFileSink(this.trajectoryFile(task), {
      writer: this.trajectories,
      logger: new Logger(`agent ${task.taskId} ${task.contextId.slice(0, 8)}`),
      onStep,
    });
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
