import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type Docker from 'dockerode';
import { ProcessTable } from './process-table';
import type { SandboxFactory } from './sandbox';
import type { SandboxOptions } from './sandbox-options';
import { SandboxReaper } from './sandbox-reaper';
import { DOCKER_CLIENT, SANDBOX_FACTORY, SANDBOX_OPTIONS } from './sandbox-tokens';

/**
 * Boot: reaps what crashed instances left (dead owners' containers and task folders, stale task folders).
 * Shutdown (SIGINT/SIGTERM with `enableShutdownHooks`, or `app.close()`): removes all of this
 * instance's containers.
 */
@Injectable()
export class SandboxLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sandbox');

  constructor(
    @Inject(SANDBOX_FACTORY) private readonly factory: SandboxFactory,
    @Inject(SANDBOX_OPTIONS) private readonly options: SandboxOptions,
    @Inject(DOCKER_CLIENT) private readonly docker: Docker,
    @Inject(ProcessTable) private readonly processes: ProcessTable,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const reaper = new SandboxReaper(this.processes);
    // A task cannot outlive its limit plus the keep-alive margin: older folders belong to nobody.
    const maxAgeMs = (this.options.taskTimeoutS + this.options.keepAliveMarginS) * 1000;
    try {
      const orphans = this.factory.kind === 'docker' ? await reaper.reapContainers(this.docker, this.options.tmpDir) : { containers: [], workspaces: [] };
      const stale = await reaper.reapWorkspaces(this.options.tmpDir, maxAgeMs);
      if (orphans.containers.length + stale.length > 0) {
        this.logger.log(
          `reaped ${orphans.containers.length} container(s) of dead owners with ${orphans.workspaces.length} workspace(s) of theirs, and ${stale.length} workspace(s) of dead owners or stale`,
        );
      }
    } catch (error) {
      this.logger.warn(`reaping leftovers failed: ${(error as Error).message}`);
    }
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    try {
      await this.factory.stopAll();
      this.logger.log(`removed this instance's sandboxes${signal ? ` on ${signal}` : ''}`);
    } catch (error) {
      this.logger.error(`removing this instance's sandboxes failed: ${(error as Error).message}`);
    }
  }
}
