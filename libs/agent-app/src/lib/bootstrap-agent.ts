import { Logger, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { WinstonLoggerFactory, type AgentName } from '@arvo-rca/task-logging';
import { parseAgentFlags } from './agent-flags';
import { AppConfig } from './app-config';

/**
 * Starts an agent app on Fastify: AgentBeats flags folded into the environment, configuration
 * validated at boot (a bad value stops the process with the list of problems), the whole Nest logger
 * routed through the run's log files (lines logged while booting are held until it is ready), shutdown
 * hooks on. The app module is built only after the flags are in the environment.
 */
export async function bootstrapAgent(appModule: () => DynamicModule, agent: AgentName): Promise<NestFastifyApplication> {
  const logger = new Logger(`${agent}-agent`);
  try {
    Object.assign(process.env, parseAgentFlags(process.argv.slice(2)));
    const app = await NestFactory.create<NestFastifyApplication>(
      appModule(),
      // A2aModule puts A2A_MAX_BODY_BYTES on the JSON-RPC bodies.
      new FastifyAdapter(),
      { abortOnError: false, bufferLogs: true },
    );
    const logging = app.get(WinstonLoggerFactory);
    app.useLogger(logging.createNestLogger());
    app.enableShutdownHooks();
    const config = app.get(AppConfig);
    logger.log(`run log directory ${logging.runDirectory} (LOG_LEVEL=${config.LOG_LEVEL})`);
    await app.listen(config.PORT, config.HOST);
    logger.log(`listening on ${await app.getUrl()}`);
    return app;
  } catch (error) {
    logger.error((error as Error).message);
    process.exit(1);
  }
}
