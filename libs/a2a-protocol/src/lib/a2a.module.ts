import { Module, type DynamicModule, type FactoryProvider, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, type AgentExecutor } from '@a2a-js/sdk/server';
import { withBearerAuth } from './agent-card';
import { AgentCardController } from './agent-card.controller';
import { A2aClientFactory } from './client/a2a-client.factory';
import { BoundedTaskStore } from './server/task-store/bounded-task-store';
import { BearerTokenGuard } from './server/bearer-token.guard';
import { JsonBodyLimit } from './server/json-body-limit';
import { JsonRpcBodyFilter } from './server/json-rpc-body.filter';
import { JsonRpcController } from './server/json-rpc.controller';
import { JsonRpcDispatcher } from './server/json-rpc.dispatcher';
import { JsonRpcResponder } from './server/json-rpc.responder';
import {
  A2A_EXECUTOR,
  A2A_SERVER_OPTIONS,
  A2A_SERVER_SETTINGS,
  AGENT_CARD,
  APP_AGENT_CARD,
  DEFAULT_HEARTBEAT_MS,
  DEFAULT_MAX_BODY_BYTES,
  type A2aServerOptions,
  type A2aServerSettings,
} from './server/a2a-server.tokens';

export interface A2aModuleOptions {
  /** Builds the card from the app's validated configuration. */
  card: Omit<FactoryProvider<AgentCard>, 'provide'>;
  /**
   * The agent's logic. A class is instantiated by this module (its dependencies come from `imports`,
   * global modules, and this module's own providers such as {@link A2aClientFactory}); a string or
   * symbol names a provider that one of `imports` exports. Without an executor the agent serves
   * only its card.
   */
  executor?: Type<AgentExecutor> | string | symbol;
  /** Modules that provide the executor or its dependencies. */
  imports?: ModuleMetadata['imports'];
  /** The server's options (its shared secret, body limit, heartbeat), built from the app's configuration; without them no token, 8 MiB bodies, 10 s heartbeats. */
  server?: Omit<FactoryProvider<A2aServerOptions>, 'provide'>;
}

const NO_SERVER_OPTIONS: Omit<FactoryProvider<A2aServerOptions>, 'provide'> = { useFactory: () => ({}) };

/**
 * Mounts an agent's A2A surface on the app's Fastify server: the card at the well-known path and,
 * with an executor, the JSON-RPC endpoint at `/` for v0.3 and v1.0 peers (the SDK's request handler
 * over a bounded in-memory task store), which reads no request body over `maxBodyBytes`. Global, so that any module can inject the {@link A2aClientFactory}.
 */
@Module({})
export class A2aModule {
  static forRoot(options: A2aModuleOptions): DynamicModule {
    const providers: Provider[] = [
      { provide: APP_AGENT_CARD, ...options.card },
      { provide: A2A_SERVER_OPTIONS, ...(options.server ?? NO_SERVER_OPTIONS) },
      {
        provide: A2A_SERVER_SETTINGS,
        inject: [A2A_SERVER_OPTIONS],
        useFactory: (server: A2aServerOptions): A2aServerSettings => ({
          token: server.token || undefined,
          heartbeatMs: server.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
          maxBodyBytes: server.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
        }),
      },
      {
        provide: AGENT_CARD,
        inject: [APP_AGENT_CARD, A2A_SERVER_SETTINGS],
        useFactory: (card: AgentCard, settings: A2aServerSettings) => (settings.token ? withBearerAuth(card) : card),
      },
      {
        provide: A2aClientFactory,
        inject: [A2A_SERVER_SETTINGS],
        useFactory: (settings: A2aServerSettings) => new A2aClientFactory({ token: settings.token, maxBodyBytes: settings.maxBodyBytes }),
      },
      ...(options.executor ? jsonRpcProviders(options.executor) : []),
    ];
    return {
      module: A2aModule,
      global: true,
      imports: options.imports ?? [],
      controllers: options.executor ? [AgentCardController, JsonRpcController] : [AgentCardController],
      providers,
      exports: [AGENT_CARD, A2aClientFactory],
    };
  }
}

function jsonRpcProviders(executor: Type<AgentExecutor> | string | symbol): Provider[] {
  const executorProviders: Provider[] =
    typeof executor === 'function' ? [executor, { provide: A2A_EXECUTOR, useExisting: executor }] : [{ provide: A2A_EXECUTOR, useExisting: executor }];
  return [
    ...executorProviders,
    {
      provide: DefaultRequestHandler,
      inject: [AGENT_CARD, A2A_EXECUTOR],
      useFactory: (card: AgentCard, agentExecutor: AgentExecutor) => new DefaultRequestHandler(card, new BoundedTaskStore(), agentExecutor),
    },
    JsonRpcDispatcher,
    JsonRpcResponder,
    BearerTokenGuard,
    JsonBodyLimit,
    { provide: APP_FILTER, useClass: JsonRpcBodyFilter },
  ];
}
