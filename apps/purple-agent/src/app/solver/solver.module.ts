import { Logger, Module } from '@nestjs/common';
import { AgentTemplates } from '../agent/agent-templates';
import { TrajectoryWriter } from '../agent/trajectory';
import { AgentClis } from '../cli/agent-clis';
import { ModelFactory } from '../models/model-factory';
import { UsageTotals } from '../models/usage';
import { PurpleConfig } from '../purple-config';
import { PurpleExecutor } from './purple.executor';
import { TaskSolver } from './task-solver';

/** The solver: models (picked once, at boot), templates, trajectories and the A2A executor. */
@Module({
  providers: [
    PurpleExecutor,
    TaskSolver,
    TrajectoryWriter,
    // Process-wide token and cost totals; each task context keeps its own as well.
    { provide: UsageTotals, useFactory: () => new UsageTotals() },
    {
      provide: ModelFactory,
      inject: [PurpleConfig],
      useFactory: (config: PurpleConfig) => {
        const logger = new Logger('Model');
        const factory = new ModelFactory(config, logger);
        logger.log(`model: ${factory.modelName}`);
        return factory;
      },
    },
    // The CLI agent (AGENT_CLI), when one is set: its key checked and its install begun at boot.
    { provide: AgentClis, inject: [PurpleConfig], useFactory: (config: PurpleConfig) => new AgentClis(config) },
    {
      provide: AgentTemplates,
      inject: [PurpleConfig],
      useFactory: (config: PurpleConfig) => AgentTemplates.load(config.AGENT_TEMPLATES_DIR),
    },
  ],
  exports: [ModelFactory, AgentTemplates, TrajectoryWriter, UsageTotals, TaskSolver, AgentClis],
})
export class SolverModule {}
