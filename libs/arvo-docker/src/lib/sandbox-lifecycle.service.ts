import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ProcessTable } from '@arvo-rca/common';
import { engineReason, SANDBOX_FACTORY, SANDBOX_OPTIONS, type SandboxFactory, type SandboxOptions } from '@arvo-rca/sandbox';
import { DockerEngine } from './docker-engine';
import { SandboxReaper, type ReapedContainers } from './sandbox-reaper';

/**
 * Boot: reaps what crashed instances left (dead owners' containers and task folders, stale task folders).
 * Shutdown (SIGINT/SIGTERM with `enableShutdownHooks`, or `app.close()`): removes all of this
 * instance's containers, then ends the engine's connections (an ssh engine's ssh processes).
 */
@Injectable()
export class SandboxLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sandbox');

  constructor(
    @Inject(SANDBOX_FACTORY) private readonly factory: SandboxFactory,
    @Inject(SANDBOX_OPTIONS) private readonly options: SandboxOptions,
    @Inject(DockerEngine) private readonly engine: DockerEngine,
    @Inject(ProcessTable) private readonly processes: ProcessTable,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const reaper = new SandboxReaper(this.processes);
    // A task cannot outlive its limit plus the keep-alive margin: older folders belong to nobody.
    const maxAgeMs = (this.options.taskTimeoutS + this.options.keepAliveMarginS) * 1000;
    // Each on its own: an engine that refuses the list (a gateway's 403) still leaves stale folders to reap.
    const orphans = await this.reapContainers(reaper);
    const stale = await reaper.reapWorkspaces(this.options.tmpDir, maxAgeMs).catch((error: Error) => {
      this.logger.warn(`reaping stale workspaces failed: ${error.message}`);
      return [];
    });
    if (orphans.containers.length + stale.length > 0) {
      this.logger.log(
        `reaped ${orphans.containers.length} container(s) of dead owners with ${orphans.workspaces.length} workspace(s) of theirs, and ${stale.length} workspace(s) of dead owners or stale`,
      );
    }
  }

  /** Dead owners' containers; what the engine refuses (to list or to remove) is logged, never fatal. */
  private async reapContainers(reaper: SandboxReaper): Promise<ReapedContainers> {
    const none: ReapedContainers = { containers: [], workspaces: [], failed: [] };
    if (this.factory.kind !== 'docker') return none;
    try {
      const reaped = await reaper.reapContainers(this.engine, this.options.tmpDir);
      for (const { container, reason } of reaped.failed) this.logger.warn(`reaping leftovers: removing ${container} failed: ${reason}`);
      return reaped;
    } catch (error) {
      this.logger.warn(`reaping leftovers failed: ${engineReason(error)}`);
      return none;
    }
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    try {
      await this.factory.stopAll();
      this.logger.log(`removed this instance's sandboxes${signal ? ` on ${signal}` : ''}`);
    } catch (error) {
      this.logger.error(`removing this instance's sandboxes failed: ${(error as Error).message}`);
    } finally {
      this.engine.close();
    }
  }
}
