import { Module, type DynamicModule, type FactoryProvider } from '@nestjs/common';
import type { AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD, AgentCardController } from './agent-card.controller';

export interface A2aModuleOptions {
  /** Builds the card from the app's validated configuration. */
  card: Omit<FactoryProvider<AgentCard>, 'provide'>;
}

/** Mounts an agent's A2A surface on the app's Fastify server: its card at the well-known path. */
@Module({})
export class A2aModule {
  static forRoot(options: A2aModuleOptions): DynamicModule {
    return {
      module: A2aModule,
      controllers: [AgentCardController],
      providers: [{ provide: AGENT_CARD, ...options.card }],
    };
  }
}
