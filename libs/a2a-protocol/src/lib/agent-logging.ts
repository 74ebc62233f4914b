import type { DynamicModule } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { TaskLoggingModule, type AgentName } from '@arvo-rca/task-logging';
import type { AgentEnvironment } from './agent-environment';

/** The agent's logging (run directory, agents.log, per-task files), built from its LOG_* configuration. */
export function agentLoggingModule(agent: AgentName): DynamicModule {
  return TaskLoggingModule.forRoot({
    inject: [ConfigService],
    useFactory: (config: ConfigService<AgentEnvironment, true>) => ({
      agent,
      logDir: config.get('LOG_DIR', { infer: true }),
      runDir: config.get('LOG_RUN_DIR', { infer: true }),
      level: config.get('LOG_LEVEL', { infer: true }),
    }),
  });
}
