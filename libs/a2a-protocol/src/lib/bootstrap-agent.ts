import { Logger, type DynamicModule } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { parseAgentFlags } from './agent-flags';
import type { AgentEnvironment } from './agent-environment';

// Command outputs and task descriptions travel in request bodies; Fastify's default 1 MiB is too small.
const BODY_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Starts an agent app on Fastify: AgentBeats flags folded into the environment, configuration
 * validated at boot (a bad value stops the process with the list of problems), shutdown hooks on.
 * The app module is built only after the flags are in the environment.
 */
export async function bootstrapAgent(appModule: () => DynamicModule, agentName: string): Promise<NestFastifyApplication> {
  const logger = new Logger(agentName);
  try {
    Object.assign(process.env, parseAgentFlags(process.argv.slice(2)));
    const app = await NestFactory.create<NestFastifyApplication>(appModule(), new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES }), {
      abortOnError: false,
    });
    app.enableShutdownHooks();
    const config = app.get<ConfigService<AgentEnvironment, true>>(ConfigService);
    await app.listen(config.get('PORT', { infer: true }), config.get('HOST', { infer: true }));
    logger.log(`listening on ${await app.getUrl()}`);
    return app;
  } catch (error) {
    logger.error((error as Error).message);
    process.exit(1);
  }
}
