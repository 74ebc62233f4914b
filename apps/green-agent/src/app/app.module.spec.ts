import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCard } from '@a2a-js/sdk';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';
import { AppModule } from './app.module';

describe('green agent app', () => {
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
    process.env['CARD_URL'] = 'http://green.example.org:9009';
    const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(), new FastifyAdapter(), { logger: false });
    try {
      await app.listen(0, '127.0.0.1');
      const response = await fetch(new URL(AGENT_CARD_PATH, await app.getUrl()));
      const card = (await response.json()) as AgentCard;

      expect(response.status).toBe(200);
      expect(card.name).toBe('arvo-rca green agent');
      expect(card.supportedInterfaces[0].url).toBe('http://green.example.org:9009/');
      expect(card.skills[0].examples).toContain('Task ID: arvo:14368');
    } finally {
      await app.close();
    }
  });

  it('refuses to boot on bad configuration, listing every bad variable', async () => {
    Object.assign(process.env, { SANDBOX: 'vm', COMMAND_TIMEOUT_S: '-1', CONTAINER_MEMORY: 'lots' });

    await expect(NestFactory.create(AppModule.forRoot(), new FastifyAdapter(), { logger: false, abortOnError: false })).rejects.toThrow(
      /invalid configuration:(?=[\s\S]*SANDBOX="vm")(?=[\s\S]*COMMAND_TIMEOUT_S="-1")(?=[\s\S]*CONTAINER_MEMORY="lots")/,
    );
  });
});
