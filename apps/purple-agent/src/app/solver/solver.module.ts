import { Logger, Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { AgentTemplates } from '../agent/agent-templates';
import { TrajectoryWriter } from '../agent/trajectory';
import { ModelFactory, type ModelSettings } from '../models/model-factory';
import { UsageTotals } from '../models/usage';
import type { PurpleEnvironment } from '../purple-environment';
import { PurpleExecutor } from './purple.executor';
import { TaskSolver } from './task-solver';
import { RUN_LOG_DIR } from './solver.tokens';

const MODEL_SETTINGS: (keyof ModelSettings)[] = [
  'MODEL',
  'MODEL_SCRIPT_FILE',
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'MODEL_MAX_TOKENS',
  'MODEL_TIMEOUT_S',
  'MODEL_MAX_RETRIES',
  'MODEL_PRICES',
];

type PurpleConfig = ConfigService<PurpleEnvironment, true>;

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
      inject: [ConfigService],
      useFactory: (config: PurpleConfig) => {
        const settings = Object.fromEntries(MODEL_SETTINGS.map((key) => [key, config.get(key, { infer: true })])) as ModelSettings;
        const factory = new ModelFactory(settings, new Logger('Model'));
        new Logger('Model').log(`model: ${factory.modelName}`);
        return factory;
      },
    },
    {
      provide: AgentTemplates,
      inject: [ConfigService],
      useFactory: (config: PurpleConfig) => AgentTemplates.load(config.get('AGENT_TEMPLATES_DIR', { infer: true }) || undefined),
    },
    { provide: RUN_LOG_DIR, inject: [WinstonLoggerFactory], useFactory: (logging: WinstonLoggerFactory) => logging.runDirectory },
  ],
  exports: [ModelFactory, AgentTemplates, TrajectoryWriter, UsageTotals, RUN_LOG_DIR, TaskSolver],
})
export class SolverModule {}
