import { Logger, Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import type Docker from 'dockerode';
import { ProcessTable } from '@arvo-rca/common';
import { createDockerClient } from './docker-client';
import { currentOwner, formatOwnerId } from './owner-id';
import { createSandboxFactory } from './sandbox-factory';
import { SandboxLifecycle } from './sandbox-lifecycle.service';
import { resolveSandboxOptions, type SandboxOptions, type SandboxOptionsInput } from './sandbox-options';
import { DOCKER_CLIENT, SANDBOX_FACTORY, SANDBOX_OPTIONS, SANDBOX_OWNER } from './sandbox-tokens';

export interface SandboxModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  /** Builds the sandbox options from what it injects, e.g. the app's configuration. */
  useFactory: (...args: never[]) => SandboxOptionsInput | Promise<SandboxOptionsInput>;
}

/**
 * Provides `SANDBOX_FACTORY` (a `SandboxFactory` of the backend picked by the `sandbox` option; an
 * unknown backend fails the boot with SANDBOX_UNKNOWN) and `SANDBOX_OWNER` (this instance's owner id),
 * reaps leftovers at boot and removes this instance's containers at shutdown.
 */
@Module({})
export class SandboxModule {
  static forRoot(options: SandboxOptionsInput): DynamicModule {
    return SandboxModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(async: SandboxModuleAsyncOptions): DynamicModule {
    const useFactory = async.useFactory as (...args: unknown[]) => SandboxOptionsInput | Promise<SandboxOptionsInput>;
    return {
      module: SandboxModule,
      imports: async.imports ?? [],
      providers: [
        ProcessTable,
        { provide: SANDBOX_OPTIONS, inject: async.inject ?? [], useFactory: async (...args: unknown[]) => resolveSandboxOptions(await useFactory(...args)) },
        { provide: DOCKER_CLIENT, useFactory: createDockerClient },
        { provide: SANDBOX_OWNER, inject: [ProcessTable], useFactory: (processes: ProcessTable) => formatOwnerId(currentOwner(processes)) },
        {
          provide: SANDBOX_FACTORY,
          inject: [SANDBOX_OPTIONS, DOCKER_CLIENT, SANDBOX_OWNER, ProcessTable],
          useFactory: (options: SandboxOptions, docker: Docker, owner: string, processes: ProcessTable) =>
            createSandboxFactory(options, { docker, owner, processes, logger: new Logger('Sandbox') }),
        },
        SandboxLifecycle,
      ],
      exports: [SANDBOX_FACTORY, SANDBOX_OWNER, SANDBOX_OPTIONS],
    };
  }
}
