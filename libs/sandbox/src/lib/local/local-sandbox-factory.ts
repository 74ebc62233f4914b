import type { ProcessTable } from '@arvo-rca/common';
import { type DiskShares, workspaceDiskShares } from '../disk/disk-shares';
import { InodeFloor } from '../disk/inode-floor';
import { LocalSandbox, type LocalIsolation } from './local-sandbox';
import type { ImageAhead, Sandbox, SandboxBackendName, SandboxFactory, SandboxSpec } from '../sandbox';
import type { SandboxOptions } from '../sandbox-options';

/** Commands on this host, each in a bubblewrap sandbox of its own, or as plain processes when asked for by name. */
export class LocalSandboxFactory implements SandboxFactory {
  readonly kind = 'local' as const;
  readonly backend: SandboxBackendName;
  readonly runsTaskImage = false;
  private readonly live = new Set<Sandbox>();
  private readonly diskShares: DiskShares | undefined;
  private readonly inodeFloor: InodeFloor;

  constructor(
    readonly isolation: LocalIsolation,
    private readonly options: SandboxOptions,
    private readonly processes: ProcessTable,
    log: (line: string) => void = () => undefined,
  ) {
    this.backend = isolation === 'bwrap' ? 'local' : 'local-unsafe';
    this.diskShares = workspaceDiskShares(options, log);
    // The workspaces are folders of tmpDir: its filesystem's inodes are the ones the tasks take.
    this.inodeFloor = new InodeFloor(options.inodesFloor, async () => options.tmpDir);
  }

  /** Bound in place: the host writes the workspace where the commands see it. */
  treeIntake(): undefined {
    return undefined;
  }

  create(spec: SandboxSpec): Sandbox {
    const sandbox = new LocalSandbox(
      {
        isolation: this.isolation,
        options: this.options,
        processes: this.processes,
        // Covered should they lie in the system's trees, which alone the sandbox shows of the host.
        hidden: [...this.options.privatePaths, this.options.tmpDir],
        diskShares: this.diskShares,
        inodeFloor: this.inodeFloor,
        onStopped: (stopped) => this.live.delete(stopped),
      },
      spec,
    );
    this.live.add(sandbox);
    return sandbox;
  }

  /** Commands run on this host: no image to fetch. */
  async fetchImage(): Promise<ImageAhead> {
    return 'ready';
  }

  async diskOutlook(concurrency: number): Promise<string | undefined> {
    return this.diskShares?.outlook(concurrency);
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.live].map((sandbox) => sandbox.stop()));
  }
}
