import type Docker from 'dockerode';
import type { ProcessTable } from '@arvo-rca/common';
import { probeBubblewrap } from './bubblewrap';
import { removeContainer } from './container-removal';
import { engineAnswers } from './docker-client';
import { DockerSandbox } from './docker-sandbox';
import { createEngineGate, type EngineGate } from './engine-gate';
import { ImagePuller } from './image-puller';
import { ownerFilter } from './labels';
import { LocalSandbox, NO_ISOLATION_WARNING, type LocalIsolation } from './local-sandbox';
import type { Sandbox, SandboxBackendName, SandboxFactory, SandboxSpec } from './sandbox';
import { chooseSandbox } from './sandbox-choice';
import type { SandboxOptions } from './sandbox-options';

export interface SandboxFactoryDeps {
  docker: Docker;
  processes: ProcessTable;
  /** This instance's owner id (see owner-id.ts). */
  owner: string;
  logger: { log(message: string): void; warn(message: string): void };
}

/**
 * Picks the backend named by `options.sandbox` (see `chooseSandbox`): a choice this host cannot honour,
 * or an unknown one, is a configuration error, raised at boot.
 */
export async function createSandboxFactory(options: SandboxOptions, deps: SandboxFactoryDeps): Promise<SandboxFactory> {
  const backend = await chooseSandbox(options.sandbox, { engineAnswers: () => engineAnswers(deps.docker), probeBubblewrap: () => probeBubblewrap() });
  if (backend.kind === 'docker') return new DockerSandboxFactory(deps.docker, options, deps.owner);
  if (backend.isolation === 'process') deps.logger.warn(NO_ISOLATION_WARNING);
  else deps.logger.log(`local sandbox: commands run inside bubblewrap, without network${options.sandbox === 'auto' ? ' (SANDBOX=auto: no Docker engine answers)' : ''}`);
  return new LocalSandboxFactory(backend.isolation, options, deps.processes);
}

/** Containers for tasks, all labelled with this instance's owner id. */
export class DockerSandboxFactory implements SandboxFactory {
  readonly kind = 'docker' as const;
  readonly backend = 'docker' as const;
  private readonly live = new Set<Sandbox>();
  private readonly images: ImagePuller;
  private readonly engineGate: EngineGate;
  private readonly storageLimits: { supported?: boolean } = {};

  constructor(
    private readonly docker: Docker,
    private readonly options: SandboxOptions,
    readonly owner: string,
  ) {
    this.images = new ImagePuller(docker);
    this.engineGate = createEngineGate(options.startConcurrency, { fixed: options.startPacing === 'fixed' });
  }

  create(spec: SandboxSpec): Sandbox {
    const context = { docker: this.docker, images: this.images, owner: this.owner, options: this.options, engineGate: this.engineGate, storageLimits: this.storageLimits, onStopped: this.forget };
    const sandbox = new DockerSandbox(context, spec);
    this.live.add(sandbox);
    return sandbox;
  }

  /** Stops every sandbox, then removes any container still labelled with this owner (one whose create raced shutdown). */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((sandbox) => sandbox.stop()));
    const left = await this.docker.listContainers({ all: true, filters: ownerFilter(this.owner) });
    await Promise.allSettled(left.map((info) => removeContainer(this.docker.getContainer(info.Id))));
  }

  private readonly forget = (sandbox: Sandbox): void => {
    this.live.delete(sandbox);
  };
}

/** Commands on this host, each in a bubblewrap sandbox of its own, or as plain processes when asked for by name. */
export class LocalSandboxFactory implements SandboxFactory {
  readonly kind = 'local' as const;
  readonly backend: SandboxBackendName;
  private readonly live = new Set<Sandbox>();

  constructor(
    readonly isolation: LocalIsolation,
    private readonly options: SandboxOptions,
    private readonly processes: ProcessTable,
  ) {
    this.backend = isolation === 'bwrap' ? 'local' : 'local-unsafe';
  }

  create(spec: SandboxSpec): Sandbox {
    const sandbox = new LocalSandbox(
      {
        isolation: this.isolation,
        options: this.options,
        processes: this.processes,
        // Covered should they lie in the system's trees, which alone the sandbox shows of the host.
        hidden: [...this.options.privatePaths, this.options.tmpDir],
        onStopped: (stopped) => this.live.delete(stopped),
      },
      spec,
    );
    this.live.add(sandbox);
    return sandbox;
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((sandbox) => sandbox.stop()));
  }
}
