import { describePull } from '@arvo-rca/a2a-protocol';
import { formatBytes } from '@arvo-rca/common';
import { engineReason, ImagePullError, type PullWatch, SandboxError, withDeadline } from '@arvo-rca/sandbox';
import type { DockerEngine } from '../engine/docker-engine';
import type { ImageBudget, PullMode } from './image-budget';
import { PullTracker } from './pull-tracker';

// The figures go out at most every second (a live view); lines for the log every few seconds, and when a layer is done.
const FIGURES_EVERY_MS = 1000;
const LINES_EVERY_MS = 5000;

/** One pull of an image, which every task that needs the image meanwhile waits for. */
interface SharedPull {
  readonly watchers: Set<PullWatch>;
  readonly abort: AbortController;
  readonly tracker: PullTracker;
  /** `no-room`: a pull ahead that the budget had no room for, which pulled nothing. */
  done: Promise<'pulled' | 'no-room'>;
  settled: boolean;
}

/**
 * Makes sure a task's image is there: pulls it when missing, with a deadline and progress; with a disk
 * budget, makes room for it first and records it as pulled here. One pull per image at a time: whoever
 * needs an image that is being pulled waits for what is left of that pull, and a pull that nobody waits
 * for any more (its tasks stopped, its assessment canceled) is cancelled. A pull ahead of its task begins
 * only while no other pull is under way: it must not take the running tasks' share of the registry's
 * bandwidth, and a running task may not have asked for its image yet when a window asks for the next one.
 */
export class ImagePuller {
  private readonly pulls = new Map<string, SharedPull>();
  /** Pulls under way, cancelled ones until they have ended. */
  private underWay = 0;
  /** Pulls ahead waiting for those to end. */
  private readonly waitingAhead = new Set<() => void>();

  constructor(
    private readonly engine: DockerEngine,
    private readonly budget?: ImageBudget,
  ) {}

  /** For a task that needs `image` now: within the budget where it can be, else beyond it, saying so. */
  async ensure(image: string, timeoutS: number, watch: PullWatch = {}): Promise<'present' | 'pulled'> {
    for (;;) {
      const outcome = await this.obtain(image, timeoutS, watch, 'now');
      // The pull it joined was one ahead that found no room: this task's own goes now.
      if (outcome !== 'no-room') return outcome;
    }
  }

  /** Ahead of the task that needs `image`: pulled only where the budget has room without removing what remaining tasks need. */
  ahead(image: string, timeoutS: number, watch: PullWatch = {}): Promise<'present' | 'pulled' | 'no-room'> {
    return this.obtain(image, timeoutS, watch, 'ahead');
  }

  /** The images being pulled now. */
  get pulling(): string[] {
    return [...this.pulls.keys()];
  }

  private async obtain(image: string, timeoutS: number, watch: PullWatch, mode: PullMode): Promise<'present' | 'pulled' | 'no-room'> {
    let pull = this.pulls.get(image);
    if (!pull) {
      if (await this.exists(image)) {
        await this.budget?.used(image);
        return 'present';
      }
      if (mode === 'ahead' && !this.pulls.has(image) && this.underWay > 0) {
        watch.say?.(`image ${image} is missing; pulling it ahead once no other pull is under way`);
        await this.noPullUnderWay(image, watch.signal);
        return this.obtain(image, timeoutS, watch, mode);
      }
      // Begun by another caller while this one asked the engine: joined.
      pull = this.pulls.get(image) ?? this.begin(image, timeoutS, mode, watch);
    }
    if (!pull.watchers.has(watch)) this.join(pull, image, watch);
    return this.wait(pull, image, watch);
  }

  private readonly ended = (): void => {
    this.underWay -= 1;
    if (this.underWay > 0) return;
    for (const resume of this.waitingAhead) resume();
    this.waitingAhead.clear();
  };

  /** Resolves once no pull is under way; rejects when `signal` gives the pull ahead up first. */
  private async noPullUnderWay(image: string, signal: AbortSignal | undefined): Promise<void> {
    let resume: (() => void) | undefined;
    let onAbort: (() => void) | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        resume = resolve;
        onAbort = () => reject(new ImagePullError('IMAGE_PULL_CANCELED', image, `the pull of ${image} ahead was given up before it began`));
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waitingAhead.add(resolve);
      });
    } finally {
      if (resume) this.waitingAhead.delete(resume);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private begin(image: string, timeoutS: number, mode: PullMode, first: PullWatch): SharedPull {
    const pull: SharedPull = {
      watchers: new Set([first]),
      abort: new AbortController(),
      tracker: new PullTracker(image),
      done: Promise.resolve('pulled'),
      settled: false,
    };
    this.pulls.set(image, pull);
    pull.done = this.run(pull, image, timeoutS, mode).finally(() => {
      pull.settled = true;
      if (this.pulls.get(image) === pull) this.pulls.delete(image);
    });
    pull.done.catch(() => undefined); // Its watchers hear of a failure; a pull they all left fails for nobody.
    this.underWay += 1;
    void pull.done.then(this.ended, this.ended);
    return pull;
  }

  private join(pull: SharedPull, image: string, watch: PullWatch): void {
    pull.watchers.add(watch);
    const figures = pull.tracker.progress();
    watch.say?.(`image ${image} is being pulled already (ahead, or for another task); waiting for what is left of it`);
    if (figures.layers > 0) {
      watch.progress?.(figures);
      watch.say?.(describePull(figures));
    }
  }

  /** The pull's end, unless the watcher stops waiting first; the last watcher to leave cancels it. */
  private async wait(pull: SharedPull, image: string, watch: PullWatch): Promise<'pulled' | 'no-room'> {
    const { signal } = watch;
    let onAbort: (() => void) | undefined;
    const left = new Promise<never>((_resolve, reject) => {
      onAbort = () => reject(new ImagePullError('IMAGE_PULL_CANCELED', image, `waiting for the pull of ${image} was given up`));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    left.catch(() => undefined);
    try {
      return await Promise.race([pull.done, left]);
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      pull.watchers.delete(watch);
      if (pull.watchers.size === 0 && !pull.settled) {
        // Nobody needs it any more: the engine cancels the pull, and a later need begins a fresh one.
        if (this.pulls.get(image) === pull) this.pulls.delete(image);
        pull.abort.abort();
      }
    }
  }

  private async run(pull: SharedPull, image: string, timeoutS: number, mode: PullMode): Promise<'pulled' | 'no-room'> {
    const say = (line: string): void => pull.watchers.forEach((watch) => watch.say?.(line));
    if (this.budget && !(await this.budget.makeRoom(image, say, mode))) return 'no-room';
    const started = Date.now();
    try {
      if (pull.abort.signal.aborted) throw new ImagePullError('IMAGE_PULL_CANCELED', image, `the pull of ${image} was cancelled before it began`);
      say(`image ${image} is missing; pulling it (limit ${timeoutS} s)`);
      // Aborting the request makes the engine cancel the pull; the engine may hang before it answers at all.
      const pulling = this.pull(image, pull);
      pulling.catch(() => undefined); // Lost the race to the deadline: nobody waits for it any more.
      await withDeadline(pulling, timeoutS * 1000, () => {
        pull.abort.abort();
        return new ImagePullError('IMAGE_PULL_TIMEOUT', image, `pulling ${image} did not finish within ${timeoutS} s`);
      });
      if (!(await this.exists(image))) throw new ImagePullError('IMAGE_PULL_FAILED', image, `pulling ${image} ended but the image is not there`);
    } catch (error) {
      this.budget?.abandoned(image);
      throw error;
    }
    // podman's progress names no sizes for small layers: what was not told is not claimed.
    const { bytes } = pull.tracker.progress();
    const downloaded = bytes > 0 ? `${formatBytes(bytes)} downloaded ` : '';
    say(`image ${image} pulled (${downloaded}in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    await this.budget?.pulled(image, say);
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

  private async pull(image: string, pull: SharedPull): Promise<void> {
    // What the progress said failed, before the engine's own reason.
    let failure: string | undefined;
    let figuresAt = 0;
    let lineAt = Date.now();
    await this.engine
      .pullImage(image, pull.abort.signal, (event) => {
        if (event.error) failure = event.errorDetail?.message ?? event.error;
        const layerDone = pull.tracker.update(event);
        const now = Date.now();
        const line = layerDone || now - lineAt >= LINES_EVERY_MS;
        if (!line && now - figuresAt < FIGURES_EVERY_MS) return;
        const figures = pull.tracker.progress();
        figuresAt = now;
        pull.watchers.forEach((watch) => watch.progress?.(figures));
        if (!line) return;
        lineAt = now;
        pull.watchers.forEach((watch) => watch.say?.(describePull(figures)));
      })
      .catch((error: unknown) => {
        if (pull.abort.signal.aborted) throw new ImagePullError('IMAGE_PULL_CANCELED', image, `the pull of ${image} was cancelled`, { cause: error });
        throw new ImagePullError('IMAGE_PULL_FAILED', image, `pulling ${image} failed: ${failure ?? engineReason(error)}`, { cause: error });
      });
    if (failure !== undefined) throw new ImagePullError('IMAGE_PULL_FAILED', image, `pulling ${image} failed: ${failure}`);
  }
}
