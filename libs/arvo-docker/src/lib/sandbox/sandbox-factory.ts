import { PassThrough } from 'node:stream';
import type { ProcessTable } from '@arvo-rca/common';
import {
  chooseSandbox,
  FolderCounter,
  type DiskShares,
  type InodeFloor,
  type ImageAhead,
  LocalSandboxFactory,
  NO_ISOLATION_WARNING,
  probeBubblewrap,
  type Sandbox,
  type SandboxFactory,
  type SandboxOptions,
  type SandboxSpec,
  type PullWatch,
} from '@arvo-rca/sandbox';
import { removeContainer } from '../container/container-removal';
import type { DockerEngine } from '../engine/docker-engine';
import { DockerSandbox } from './docker-sandbox';
import { engineDiskShares, engineInodeFloor } from './engine-disk';
import type { ImageBudget } from '../images/image-budget';
import { ImagePuller } from '../images/image-puller';
import { ownerFilter } from '../engine/labels';

export interface SandboxFactoryDeps {
  engine: DockerEngine;
  processes: ProcessTable;
  /** This instance's owner id (see owner-id.ts). */
  owner: string;
  logger: { log(message: string): void; warn(message: string): void };
  /** The images' disk budget, when there is one. */
  imageBudget?: ImageBudget;
}

/**
 * Picks the backend named by `options.sandbox` (see `chooseSandbox`): a choice this host cannot honour,
 * or an unknown one, is a configuration error, raised at boot.
 */
export async function createSandboxFactory(options: SandboxOptions, deps: SandboxFactoryDeps): Promise<SandboxFactory> {
  const backend = await chooseSandbox(options.sandbox, { engineAnswers: () => deps.engine.answers(), probeBubblewrap: () => probeBubblewrap() });
  if (backend.kind === 'docker') return new DockerSandboxFactory(deps.engine, options, deps.owner, deps.imageBudget, (line) => deps.logger.log(line));
  if (backend.isolation === 'process') deps.logger.warn(NO_ISOLATION_WARNING);
  else
    deps.logger.log(
      `local sandbox: commands run inside bubblewrap, without network${options.sandbox === 'auto' ? ' (SANDBOX=auto: no Docker engine answers)' : ''}`,
    );
  return new LocalSandboxFactory(backend.isolation, options, deps.processes, (line) => deps.logger.log(line));
}

/** Containers for tasks, all labelled with this instance's owner id. */
export class DockerSandboxFactory implements SandboxFactory {
  readonly kind = 'docker' as const;
  readonly backend = 'docker' as const;
  readonly runsTaskImage = true;
  /** What the host's extraction may run ahead of the engine's copy of the tree. */
  private static readonly TREE_BUFFER_BYTES = 4 * 1024 * 1024;
  private readonly live = new Set<Sandbox>();
  private readonly images: ImagePuller;
  private readonly storageLimits: { supported?: boolean } = {};
  private readonly diskShares: DiskShares | undefined;
  private readonly inodeFloor: InodeFloor;
  private readonly folderCounter = new FolderCounter();

  constructor(
    private readonly engine: DockerEngine,
    private readonly options: SandboxOptions,
    readonly owner: string,
    imageBudget?: ImageBudget,
    log: (line: string) => void = () => undefined,
  ) {
    this.images = new ImagePuller(engine, imageBudget);
    this.diskShares = engineDiskShares(engine, options, log);
    this.inodeFloor = engineInodeFloor(engine, options);
  }

  /** The container starts while the host extracts the tree, and takes it in as it is written. */
  treeIntake(): PassThrough {
    return new PassThrough({ highWaterMark: DockerSandboxFactory.TREE_BUFFER_BYTES });
  }

  create(spec: SandboxSpec): Sandbox {
    const context = {
      engine: this.engine,
      images: this.images,
      owner: this.owner,
      options: this.options,
      storageLimits: this.storageLimits,
      diskShares: this.diskShares,
      inodeFloor: this.inodeFloor,
      folderCounter: this.folderCounter,
      onStopped: this.forget,
    };
    const sandbox = new DockerSandbox(context, spec);
    this.live.add(sandbox);
    return sandbox;
  }

  async fetchImage(image: string, watch: PullWatch): Promise<ImageAhead> {
    const outcome = await this.images.ahead(image, this.options.pullTimeoutS, watch);
    return outcome === 'no-room' ? outcome : 'ready';
  }

  async diskOutlook(concurrency: number): Promise<string | undefined> {
    return this.diskShares?.outlook(concurrency);
  }

  /** Stops every sandbox, then removes any container still labelled with this owner (one whose create raced shutdown). */
  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((sandbox) => sandbox.stop()));
    const left = await this.engine.listContainers(ownerFilter(this.owner).label);
    await Promise.allSettled(left.map((info) => removeContainer(this.engine.container(info.id))));
    this.folderCounter.close();
  }

  private readonly forget = (sandbox: Sandbox): void => {
    this.live.delete(sandbox);
  };
}
