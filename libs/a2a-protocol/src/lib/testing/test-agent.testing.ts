import { createServer, type AddressInfo } from 'node:net';
import { Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { A2aModule } from '../a2a.module';
import { buildAgentCard, PRODUCT_VERSION, type AgentCardSpec } from '../agent-card';

interface TestAgentOptions {
  executor?: Type<AgentExecutor>;
  token?: string;
  heartbeatMs?: number;
  maxBodyBytes?: number;
  /** The protocol versions the card declares (default both). */
  versions?: ('1.0' | '0.3')[];
  /** The card's name and skills, as the agent stood in for declares them (default an echo agent's). */
  card?: TestCard;
}

/** What a test agent's card says of it. */
export type TestCard = Pick<AgentCardSpec, 'name' | 'description' | 'skills'>;

export interface TestAgent {
  app: NestFastifyApplication;
  /** The base URL, with a trailing slash. */
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** A real agent app on loopback, mounted with A2aModule, for tests of servers and clients. */
export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  // The card must name the port before the app listens, so one is reserved first.
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  @Module({
    imports: [
      A2aModule.forRoot({
        card: { useFactory: () => testCard(url, options.versions ?? ['1.0', '0.3'], options.card ?? ECHO_CARD) },
        executor: options.executor,
        server: { useFactory: () => ({ token: options.token, heartbeatMs: options.heartbeatMs, maxBodyBytes: options.maxBodyBytes }) },
      }),
    ],
  })
  class TestAgentModule {}
  const app = await NestFactory.create<NestFastifyApplication>(TestAgentModule, new FastifyAdapter(), { logger: false });
  await app.listen(port, '127.0.0.1');
  return { app, url, port, close: () => app.close() };
}

const ECHO_CARD: TestCard = {
  name: 'echo agent',
  description: 'answers what it is told',
  skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: ['test'], examples: ['hello'] }],
};

function testCard(url: string, versions: ('1.0' | '0.3')[], spec: TestCard) {
  const card = buildAgentCard({ ...spec, version: PRODUCT_VERSION, url });
  return { ...card, supportedInterfaces: card.supportedInterfaces.filter((i) => versions.includes(i.protocolVersion as '1.0' | '0.3')) };
}

/** A loopback port nobody listens on at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
