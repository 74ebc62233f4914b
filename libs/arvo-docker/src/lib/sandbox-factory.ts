import type Docker from 'dockerode';
import { bubblewrapWorks } from './bubblewrap';
import { removeContainer } from './container-removal';
import { engineAnswers } from './docker-client';
import { ArvoDockerEnvironment } from './docker-environment';
import { createEngineGate, type EngineGate } from './engine-gate';
import { ImagePuller } from './image-puller';
import { ownerFilter } from './labels';
import { ArvoLocalEnvironment, NO_ISOLATION_WARNING, type LocalIsolation } from './local-environment';
import type { ProcessTable } from './process-table';
import type { Sandbox, SandboxFactory, SandboxSpec } from './sandbox';
import { SandboxError } from './sandbox-error';
import { SANDBOX_CHOICES, type SandboxOptions } from './sandbox-options';

export interface SandboxFactoryDeps {
  docker: Docker;
  processes: ProcessTable;
  /** This instance's owner id (see owner-id.ts). */
  owner: string;
  logger: { log(message: string): void; warn(message: string): void };
}

/**
 * Picks the backend named by `options.sandbox`: `docker`, `local`, or `auto` (docker when an engine
 * answers, else local). Anything else is a configuration error, raised at boot.
 */
export async function createSandboxFactory(options: SandboxOptions, deps: SandboxFactoryDeps): Promise<SandboxFactory> {
  switch (options.sandbox) {
    case 'docker':
      if (!(await engineAnswers(deps.docker))) {
        throw new SandboxError('ENGINE_UNAVAILABLE', 'SANDBOX=docker, but no Docker engine answers (at DOCKER_HOST or the local socket)');
      }
      return new DockerSandboxFactory(deps.docker, options, deps.owner);
    case 'local':
      return LocalSandboxFactory.detect(options, deps);
    case 'auto':
      if (await engineAnswers(deps.docker)) return new DockerSandboxFactory(deps.docker, options, deps.owner);
      deps.logger.warn('SANDBOX=auto: no Docker engine answers; falling back to the local sandbox');
      return LocalSandboxFactory.detect(options, deps);
    default:
      throw new SandboxError(
        'SANDBOX_UNKNOWN',
        `SANDBOX=${JSON.stringify(options.sandbox)} is not a sandbox backend; use one of: ${SANDBOX_CHOICES.join(', ')}`,
      );
  }
}

/** Containers for tasks, all labelled with this instance's owner id. */
export class DockerSandboxFactory implements SandboxFactory {
  readonly kind = 'docker' as const;
  private readonly live = new Set<Sandbox>();
  private readonly images: ImagePuller;
  private readonly engineGate: EngineGate;

  constructor(
    private readonly docker: Docker,
    private readonly options: SandboxOptions,
    readonly owner: string,
  ) {
    this.images = new ImagePuller(docker);
    this.engineGate = createEngineGate(options.startConcurrency);
  }

  create(spec: SandboxSpec): Sandbox {
    const context = { docker: this.docker, images: this.images, owner: this.owner, options: this.options, engineGate: this.engineGate, onStopped: this.forget };
    const sandbox = new ArvoDockerEnvironment(context, spec);
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

/** Commands on this host, inside bubblewrap where it works, else as plain processes (loudly). */
export class LocalSandboxFactory implements SandboxFactory {
  readonly kind = 'local' as const;
  private readonly live = new Set<Sandbox>();

  constructor(
    readonly isolation: LocalIsolation,
    private readonly options: SandboxOptions,
    private readonly processes: ProcessTable,
  ) {}

  static detect(options: SandboxOptions, deps: SandboxFactoryDeps): LocalSandboxFactory {
    const isolation: LocalIsolation = bubblewrapWorks() ? 'bwrap' : 'process';
    if (isolation === 'process') deps.logger.warn(NO_ISOLATION_WARNING);
    else deps.logger.log('local sandbox: commands run inside bubblewrap, without network');
    return new LocalSandboxFactory(isolation, options, deps.processes);
  }

  create(spec: SandboxSpec): Sandbox {
    const sandbox = new ArvoLocalEnvironment(
      {
        isolation: this.isolation,
        options: this.options,
        processes: this.processes,
        // Other tasks' workspaces and the assessor's private files stay out of sight.
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
