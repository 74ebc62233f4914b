import type { DynamicModule, Type } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { A2aModule, type A2aModuleOptions } from '@arvo-rca/a2a-protocol';
import type { AgentName } from '@arvo-rca/task-logging';
import { a2aServerOptions } from './a2a-server-options';
import { agentLoggingModule } from './agent-logging';
import { AppConfig } from './app-config';
import { AppConfigModule } from './app-config.module';

/**
 * An agent app's root `module`: its configuration class `config`, validated once at boot, the logging of
 * `agent`, and its A2A surface (`a2a`: card, executor and the modules behind it), whose server takes its
 * options (shared secret, body limit) from the configuration.
 */
export function agentAppModule<C extends AppConfig>(
  module: Type<unknown>,
  config: ClassConstructor<C>,
  agent: AgentName,
  a2a: Omit<A2aModuleOptions, 'server'>,
): DynamicModule {
  return {
    module,
    imports: [
      AppConfigModule.forRoot(config),
      agentLoggingModule(agent),
      A2aModule.forRoot({ ...a2a, server: { inject: [AppConfig], useFactory: a2aServerOptions } }),
    ],
  };
}
