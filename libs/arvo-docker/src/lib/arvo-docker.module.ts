import { Logger, Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import type Docker from 'dockerode';
import { ProcessTable } from '@arvo-rca/common';
import { currentOwner, formatOwnerId, resolveSandboxOptions, SANDBOX_FACTORY, SANDBOX_OPTIONS, SANDBOX_OWNER, type SandboxOptions, type SandboxOptionsInput } from '@arvo-rca/sandbox';
import { createDockerClient } from './docker-client';
import { DOCKER_CLIENT } from './docker-tokens';
import { createSandboxFactory } from './sandbox-factory';
import { SandboxLifecycle } from './sandbox-lifecycle.service';

export interface ArvoDockerModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  /** Builds the sandbox options from what it injects, e.g. the app's configuration. */
  useFactory: (...args: never[]) => SandboxOptionsInput | Promise<SandboxOptionsInput>;
}

/**
 * The Docker side of the green agent's sandboxes. Provides `SANDBOX_FACTORY` (a `SandboxFactory` of the
 * backend picked by the `sandbox` option: containers on the engine, or the local backend of
 * @arvo-rca/sandbox where no engine answers; an unknown backend fails the boot with SANDBOX_UNKNOWN),
 * `DOCKER_CLIENT` and `SANDBOX_OWNER` (this instance's owner id),
 * reaps leftovers at boot and removes this instance's containers at shutdown.
 */
@Module({})
export class ArvoDockerModule {
  static forRoot(options: SandboxOptionsInput): DynamicModule {
    return ArvoDockerModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(async: ArvoDockerModuleAsyncOptions): DynamicModule {
    const useFactory = async.useFactory as (...args: unknown[]) => SandboxOptionsInput | Promise<SandboxOptionsInput>;
    return {
      module: ArvoDockerModule,
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
      exports: [SANDBOX_FACTORY, SANDBOX_OWNER, SANDBOX_OPTIONS, DOCKER_CLIENT],
    };
  }
}
