import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskProgressLine } from '@arvo-rca/a2a-protocol';
import type { TaskRef } from '@arvo-rca/common';
import { type PullWatch, SANDBOX_FACTORY, type SandboxFactory } from '@arvo-rca/sandbox';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { GreenConfig } from '../../green-config';
import { TaskAssetsService } from '../../task-assets';

// The task log's context for what is done for a task before its run has a context of its own.
const AHEAD_CONTEXT = 'ahead';

/**
 * Fetches a task's files and pulls its image before its turn, each through what its own run uses (the
 * content cache, the image puller), so that the run finds them there, or joins what is under way.
 */
@Injectable()
export class TaskFetcher {
  private readonly logger = new Logger(TaskFetcher.name);
  private readonly fetchAhead: number | undefined;
  private readonly prepareAhead: number | undefined;

  constructor(
    private readonly assets: TaskAssetsService,
    @Inject(SANDBOX_FACTORY) private readonly sandboxes: SandboxFactory,
    private readonly logging: WinstonLoggerFactory,
    @Inject(GreenConfig) config: GreenConfig,
  ) {
    this.fetchAhead = config.FETCH_AHEAD;
    this.prepareAhead = config.PREPARE_AHEAD;
  }

  /** How many tasks ahead an assessment running `concurrency` at once fetches (FETCH_AHEAD, else its concurrency). */
  windowFor(concurrency: number): number {
    return this.fetchAhead ?? concurrency;
  }

  /**
   * How many of those an assessment running `concurrency` at once prepares (PREPARE_AHEAD, else its
   * concurrency): never more than run at once, so that none waits longer for its turn than one running
   * task's limit, which its container's keep-alive allows for.
   */
  preparedFor(concurrency: number): number {
    return Math.min(this.prepareAhead ?? concurrency, concurrency, this.windowFor(concurrency));
  }

  /**
   * The task's files and image, in its own log; its pull's figures go to `report`. False when the image
   * budget has no room for its image yet. A failure is the task's own run's to meet and report: here it is
   * logged only. Leaving on `signal` cancels a pull that no running task waits for.
   */
  async fetch(ref: TaskRef, report: (line: TaskProgressLine) => void, signal: AbortSignal): Promise<boolean> {
    const task = ref.taskId;
    const image = this.assets.image(ref);
    return this.logging.runInTask({ taskId: task, contextId: AHEAD_CONTEXT }, async () => {
      const log = (line: string): void => this.logger.log(line);
      const files = this.assets
        .fetch(ref, log)
        .catch((error: Error) => log(`fetching the files ahead failed (${error.message}); the task fetches them itself`));
      const watch: PullWatch = { say: log, progress: (pull) => report({ task, kind: 'pull', ...pull }), signal };
      const pulled = this.sandboxes
        .fetchImage(image, watch)
        .then((outcome) => {
          if (outcome === 'no-room') log(`image budget: no room for ${image} ahead of its task yet; tried again when a task ends`);
          return outcome === 'ready';
        })
        .catch((error: Error) => {
          if (!signal.aborted) log(`pulling ${image} ahead failed (${error.message}); the task pulls it itself`);
          return true;
        });
      const [, ready] = await Promise.all([files, pulled]);
      return ready;
    });
  }
}
