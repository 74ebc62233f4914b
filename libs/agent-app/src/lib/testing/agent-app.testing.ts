import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCard } from '@a2a-js/sdk';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';

// What both agents' app specs do around their assertions: boot the app module from the environment, as
// `main.ts` does, and read what it serves or why it refused.

/** Call inside a describe: each test starts from the environment the suite found, logging to a folder of its own. */
export function isolateAppEnvironment(): void {
  const saved = { ...process.env };
  const logDir = mkdtempSync(join(tmpdir(), 'arvo-rca-app-logs-'));
  beforeEach(() => {
    process.env['LOG_DIR'] = logDir;
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  afterAll(() => rmSync(logDir, { recursive: true, force: true }));
}

/** Boots the module with CARD_URL set, on a loopback port, and fetches its card over HTTP. */
export async function fetchServedCard(module: () => DynamicModule, cardUrl: string): Promise<{ status: number; card: AgentCard }> {
  process.env['CARD_URL'] = cardUrl;
  const app = await NestFactory.create<NestFastifyApplication>(module(), new FastifyAdapter(), { logger: false });
  try {
    await app.listen(0, '127.0.0.1');
    const response = await fetch(new URL(AGENT_CARD_PATH, await app.getUrl()));
    return { status: response.status, card: (await response.json()) as AgentCard };
  } finally {
    await app.close();
  }
}

/** Boots the module with `env` added; settles as the boot does (a refusal rejects with its reason). */
export async function bootWith(module: () => DynamicModule, env: Record<string, string>): Promise<void> {
  Object.assign(process.env, env);
  const app = await NestFactory.create(module(), new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.close();
}
