import type { DynamicModule } from '@nestjs/common';
import { TaskLoggingModule, type AgentName } from '@arvo-rca/task-logging';
import { AppConfig } from './app-config';

/** The agent's logging (run directory, agents.log, per-task files), built from its LOG_* configuration. */
export function agentLoggingModule(agent: AgentName): DynamicModule {
  return TaskLoggingModule.forRoot({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({
      agent,
      logDir: config.LOG_DIR,
      runDir: config.LOG_RUN_DIR,
      level: config.LOG_LEVEL,
      bounds: { lineBytes: config.LOG_LINE_MAX_BYTES, taskBytes: config.LOG_TASK_MAX_BYTES },
    }),
  });
}
