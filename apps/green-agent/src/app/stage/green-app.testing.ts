import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { AppModule } from '../app.module';
import type { TestAgent } from '@arvo-rca/a2a-protocol/testing';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', 'samples');
const TASK_LISTS_DIR = join(__dirname, '..', '..', '..', '..', '..', 'task-lists');

/** A solver the green app hands its tasks to; told where the green agent listens once it does. */
export interface SolverEndpoint {
  agent: Pick<TestAgent, 'url'>;
  greenUrl: string;
}

export interface GreenApp {
  app: NestFastifyApplication;
  url: string;
}

/**
 * The real green app on loopback, docker sandboxes, tasks and logs under `scratchDir`, handing tasks
 * to `solver`. The port is chosen before boot: the card names it, and clients follow the card.
 */
export async function startGreenApp(scratchDir: string, solver: SolverEndpoint, env: Record<string, string> = {}): Promise<GreenApp> {
  const port = await freePort();
  Object.assign(process.env, {
    PORT: String(port),
    SANDBOX: 'docker',
    TMP_DIR: join(scratchDir, 'tasks'),
    CACHE_DIR: join(scratchDir, 'cache'),
    LOG_DIR: join(scratchDir, 'logs'),
    SAMPLES_DIR,
    TASK_LISTS_DIR,
    TASK_TIMEOUT_S: '120',
    PURPLE_AGENT_URL: solver.agent.url,
    ...env,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.listen(port, '127.0.0.1');
  const url = `http://127.0.0.1:${port}/`;
  solver.greenUrl = url;
  return { app, url };
}
