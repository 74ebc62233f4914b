import { engineReason, SandboxError, withDeadline } from '@arvo-rca/sandbox';
import type { PullEvent } from './container-handle';
import type { DockerEngine } from './docker-engine';
import type { ImageBudget } from './image-budget';

const PROGRESS_EVERY_MS = 5000;

/**
 * Makes sure a task's image is there: pulls it when missing, with a deadline and progress lines; with a
 * disk budget, makes room for it first and records it as pulled here.
 */
export class ImagePuller {
  constructor(
    private readonly engine: DockerEngine,
    private readonly budget?: ImageBudget,
  ) {}

  async ensure(image: string, timeoutS: number, onProgress: (line: string) => void = () => undefined): Promise<'present' | 'pulled'> {
    if (await this.exists(image)) {
      await this.budget?.used(image);
      return 'present';
    }
    onProgress(`image ${image} is missing; pulling it (limit ${timeoutS} s)`);
    await this.budget?.makeRoom(image, onProgress);
    // Aborting the request makes the engine cancel the pull; the engine may hang before it answers at all.
    const abort = new AbortController();
    const pulling = this.pull(image, abort.signal, onProgress);
    pulling.catch(() => undefined); // Lost the race to the deadline: nobody waits for it any more.
    await withDeadline(pulling, timeoutS * 1000, () => {
      abort.abort();
      return new SandboxError('IMAGE_PULL_TIMEOUT', `pulling ${image} did not finish within ${timeoutS} s`);
    });
    if (!(await this.exists(image))) throw new SandboxError('IMAGE_PULL_FAILED', `pulling ${image} ended but the image is not there`);
    onProgress(`image ${image} pulled`);
    await this.budget?.pulled(image, onProgress);
    return 'pulled';
  }

  private async exists(image: string): Promise<boolean> {
    try {
      await this.engine.inspectImage(image);
      return true;
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 404) return false;
      throw new SandboxError('ENGINE_UNAVAILABLE', `inspecting image ${image} failed: ${engineReason(error)}`, { cause: error });
    }
  }

  private async pull(image: string, signal: AbortSignal, onProgress: (line: string) => void): Promise<void> {
    // What the progress said failed, before the engine's own reason.
    let failure: string | undefined;
    await this.engine
      .pullImage(
        image,
        signal,
        progressReporter(onProgress, (reason) => (failure = reason)),
      )
      .catch((error: unknown) => {
        throw new SandboxError('IMAGE_PULL_FAILED', `pulling ${image} failed: ${failure ?? engineReason(error)}`, { cause: error });
      });
    if (failure !== undefined) throw new SandboxError('IMAGE_PULL_FAILED', `pulling ${image} failed: ${failure}`);
  }
}

// Download and extract progress arrives many times a second per layer: report each layer's changes of
// status, and those two at most every few seconds.
function progressReporter(onProgress: (line: string) => void, onError: (reason: string) => void): (event: PullEvent) => void {
  let lastPulse = 0;
  const lastStatus = new Map<string, string>();
  return (event) => {
    if (event.error) onError(event.errorDetail?.message ?? event.error);
    if (!event.status) return;
    const key = event.id ?? '';
    const isPulse = /^(Downloading|Extracting)/.test(event.status);
    if (lastStatus.get(key) === event.status) return;
    if (isPulse && Date.now() - lastPulse < PROGRESS_EVERY_MS) return;
    if (isPulse) lastPulse = Date.now();
    lastStatus.set(key, event.status);
    onProgress(event.id ? `${event.id}: ${event.status}` : event.status);
  };
}
