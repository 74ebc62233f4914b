import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCard } from '@a2a-js/sdk';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';
import { AppModule } from './app.module';

describe('purple agent app', () => {
  const saved = { ...process.env };
  const logDir = mkdtempSync(join(tmpdir(), 'arvo-rca-app-logs-'));
  beforeEach(() => {
    process.env['LOG_DIR'] = logDir;
  });
  afterEach(() => {
    process.env = { ...saved };
  });
  afterAll(() => rmSync(logDir, { recursive: true, force: true }));

  it('serves its A2A card over HTTP, naming the card URL it was given', async () => {
    process.env['CARD_URL'] = 'http://purple.example.org:9019';
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), new FastifyAdapter(), { logger: false });
    try {
      await app.listen(0, '127.0.0.1');
      const response = await fetch(new URL(AGENT_CARD_PATH, await app.getUrl()));
      const card = (await response.json()) as AgentCard;

      expect(response.status).toBe(200);
      expect(card.name).toBe('arvo-rca purple agent');
      expect(card.supportedInterfaces[0].url).toBe('http://purple.example.org:9019/');
      expect(card.skills[0].id).toBe('root-cause-analysis');
    } finally {
      await app.close();
    }
  });

  it('refuses to boot on bad configuration, listing every bad variable', async () => {
    Object.assign(process.env, { MODEL: 'gpt', STEP_LIMIT: '-1', GREEN_AGENT_URL: 'green' });

    await expect(NestFactory.create(AppModule.forRoot(), new FastifyAdapter(), { logger: false, abortOnError: false })).rejects.toThrow(
      /invalid configuration:(?=[\s\S]*MODEL="gpt")(?=[\s\S]*STEP_LIMIT="-1")(?=[\s\S]*GREEN_AGENT_URL="green")/,
    );
  });
});
