import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ProcessTable } from '@arvo-rca/common';
import { SANDBOX_FACTORY, SANDBOX_OPTIONS, type SandboxFactory, type SandboxOptions } from '@arvo-rca/sandbox';
import { DockerEngine } from '../engine/docker-engine';
import { ReaperWatch } from './reaper-watch';
import { SandboxReaper } from './sandbox-reaper';

/**
 * Boot: reaps what crashed instances left (dead owners' containers and task folders, stale task folders),
 * then sweeps for it every `reapIntervalS` while the app runs, so that an assessor killed mid-task leaves
 * nothing for long. Shutdown (SIGINT/SIGTERM with `enableShutdownHooks`, or `app.close()`): stops the
 * sweeps, removes all of this instance's containers, then ends the engine's connections (an ssh engine's
 * ssh processes).
 */
@Injectable()
export class SandboxLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Sandbox');
  private readonly watch: ReaperWatch;

  constructor(
    @Inject(SANDBOX_FACTORY) private readonly factory: SandboxFactory,
    @Inject(SANDBOX_OPTIONS) options: SandboxOptions,
    @Inject(DockerEngine) private readonly engine: DockerEngine,
    @Inject(ProcessTable) processes: ProcessTable,
  ) {
    this.watch = new ReaperWatch(
      new SandboxReaper(processes),
      {
        // Containers only where this instance runs them: the local backend's engine may be absent.
        engine: factory.kind === 'docker' ? engine : undefined,
        tmpDir: options.tmpDir,
        // A task cannot outlive its limit plus the keep-alive margin: older folders belong to nobody.
        maxAgeMs: (options.taskTimeoutS + options.keepAliveMarginS) * 1000,
        intervalMs: options.reapIntervalS * 1000,
      },
      this.logger,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.watch.sweep();
    this.watch.start();
  }

  async onApplicationShutdown(signal?: string): Promise<void> {
    await this.watch.stop();
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
