import { Logger, Module, type DynamicModule, type FactoryProvider, type ModuleMetadata } from '@nestjs/common';
import { ProcessTable } from '@arvo-rca/common';
import {
  currentOwner,
  formatOwnerId,
  resolveSandboxOptions,
  SANDBOX_FACTORY,
  SANDBOX_OPTIONS,
  SANDBOX_OWNER,
  type SandboxOptions,
  type SandboxOptionsInput,
} from '@arvo-rca/sandbox';
import { DockerEngine } from './engine/docker-engine';
import type { EngineSettings } from './engine/engine-settings';
import { ImageBudget } from './images/image-budget';
import { ImageLedger } from './images/image-ledger';
import { NeededImages } from './images/needed-images';
import { createSandboxFactory } from './sandbox/sandbox-factory';
import { SandboxLifecycle } from './reaper/sandbox-lifecycle.service';

/** The sandboxes' options, and where their engine is (unset: the local socket). */
export interface ArvoDockerOptionsInput extends SandboxOptionsInput {
  engine?: EngineSettings;
  /** The images' disk budget (0: none), and the folder of the record of the images pulled here. */
  images?: { budgetBytes: number; ledgerDir: string };
}

interface ArvoDockerModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: FactoryProvider['inject'];
  /** Builds the options from what it injects, e.g. the app's configuration. */
  useFactory: (...args: never[]) => ArvoDockerOptionsInput | Promise<ArvoDockerOptionsInput>;
}

// What the app's factory built: the sandboxes' options and the engine's settings, provided apart.
const OPTIONS_INPUT = Symbol('ARVO_DOCKER_OPTIONS_INPUT');

/**
 * The Docker side of the green agent's sandboxes. Provides `SANDBOX_FACTORY` (a `SandboxFactory` of the
 * backend picked by the `sandbox` option: containers on the engine, or the local backend of
 * @arvo-rca/sandbox where no engine answers; an unknown backend fails the boot with SANDBOX_UNKNOWN),
 * `DockerEngine` (the engine the `engine` settings name), `SANDBOX_OWNER` (this instance's owner id) and
 * `NeededImages` (what running assessments still need, which the `images` budget never removes),
 * reaps leftovers at boot and removes this instance's containers at shutdown.
 */
@Module({})
export class ArvoDockerModule {
  static forRoot(options: ArvoDockerOptionsInput): DynamicModule {
    return ArvoDockerModule.forRootAsync({ useFactory: () => options });
  }

  static forRootAsync(async: ArvoDockerModuleAsyncOptions): DynamicModule {
    const useFactory = async.useFactory as (...args: unknown[]) => ArvoDockerOptionsInput | Promise<ArvoDockerOptionsInput>;
    return {
      module: ArvoDockerModule,
      imports: async.imports ?? [],
      providers: [
        ProcessTable,
        { provide: OPTIONS_INPUT, inject: async.inject ?? [], useFactory: async (...args: unknown[]) => useFactory(...args) },
        {
          provide: SANDBOX_OPTIONS,
          inject: [OPTIONS_INPUT],
          useFactory: ({ engine: _engine, images: _images, ...sandbox }: ArvoDockerOptionsInput) => resolveSandboxOptions(sandbox),
        },
        {
          provide: DockerEngine,
          inject: [OPTIONS_INPUT, SANDBOX_OPTIONS],
          useFactory: (input: ArvoDockerOptionsInput, options: SandboxOptions) => new DockerEngine(input.engine, options),
        },
        { provide: SANDBOX_OWNER, inject: [ProcessTable], useFactory: (processes: ProcessTable) => formatOwnerId(currentOwner(processes)) },
        NeededImages,
        {
          provide: SANDBOX_FACTORY,
          inject: [OPTIONS_INPUT, SANDBOX_OPTIONS, DockerEngine, SANDBOX_OWNER, ProcessTable, NeededImages],
          useFactory: (
            input: ArvoDockerOptionsInput,
            options: SandboxOptions,
            engine: DockerEngine,
            owner: string,
            processes: ProcessTable,
            needed: NeededImages,
          ) => {
            const logger = new Logger('Sandbox');
            const { budgetBytes = 0, ledgerDir = '' } = input.images ?? {};
            const imageBudget = budgetBytes > 0 ? new ImageBudget(engine, new ImageLedger(ledgerDir), needed, budgetBytes, logger) : undefined;
            return createSandboxFactory(options, { engine, owner, processes, logger, imageBudget });
          },
        },
        SandboxLifecycle,
      ],
      exports: [SANDBOX_FACTORY, SANDBOX_OWNER, SANDBOX_OPTIONS, DockerEngine, NeededImages],
    };
  }
}
