import { formatBytes } from '@arvo-rca/common';
import { engineReason } from '@arvo-rca/sandbox';
import type { DockerEngine } from '../engine/docker-engine';
import type { ImageLedger, PulledImage } from './image-ledger';
import type { NeededImages } from './needed-images';

type Say = (line: string) => void;

/** A pull for a task that needs its image now (beyond the budget if it must), or ahead of it (within the budget only). */
export type PullMode = 'now' | 'ahead';

/**
 * Keeps the images the green agent pulled itself within `budgetBytes` of the engine's disk. Sizes are the
 * engine's own, known after a pull: before the next one it removes the least recently used images it
 * pulled that no remaining task needs, until they and one more image as large as the largest it pulled fit.
 * Each image counts whole (layers shared between them count once per image), so the disk they take is at
 * most what is counted. Pulls under way count as one such image each, so that two at once never both take the
 * room one removal made. It never removes an image it did not pull; where the engine refuses deletes it says
 * so once and removes nothing more.
 */
export class ImageBudget {
  private refused = false;
  // One pull's accounting at a time: two pulls at once must not both count the room one removal made.
  private queue: Promise<unknown> = Promise.resolve();
  /** The pulls under way, each with the bytes counted for it until it ends. */
  private readonly underWay = new Map<string, number>();

  constructor(
    private readonly engine: DockerEngine,
    private readonly ledger: ImageLedger,
    private readonly needed: NeededImages,
    readonly budgetBytes: number,
    private readonly logger: { warn(message: string): void },
  ) {}

  /** A task needs `image`, which was already there: when it is one the agent pulled, it was used now. */
  used(image: string): Promise<void> {
    return this.serial(() => this.ledger.touch(image));
  }

  /**
   * Before `image` is pulled: removes what it must for the pulled images, those under way and one more to
   * fit, and counts the pull as under way. `ahead`: where they cannot fit, it pulls nothing and says false.
   */
  makeRoom(image: string, say: Say, mode: PullMode = 'now'): Promise<boolean> {
    return this.serial(async () => {
      const pulled = await this.present(await this.ledger.list());
      const expected = Math.max(0, ...pulled.map((entry) => entry.bytes));
      let total = pulled.reduce((sum, entry) => sum + entry.bytes, 0) + [...this.underWay.values()].reduce((sum, bytes) => sum + bytes, 0);
      for (const entry of pulled) {
        if (total + expected <= this.budgetBytes || this.refused) break;
        if (entry.image === image || this.needed.isNeeded(entry.image)) continue;
        if (await this.remove(entry, say)) total -= entry.bytes;
      }
      const fits = total + expected <= this.budgetBytes;
      if (!fits && mode === 'ahead') return false;
      if (!fits && !this.refused)
        say(
          `image budget: the images pulled here take ${formatBytes(total)} of ${formatBytes(this.budgetBytes)}, and none of the rest may go (still needed, or in use); pulling ${image} anyway`,
        );
      this.underWay.set(image, expected);
      return true;
    });
  }

  /** A pull counted by makeRoom that failed or was cancelled: it takes nothing any more. */
  abandoned(image: string): void {
    this.underWay.delete(image);
  }

  /** After `image` was pulled: it is recorded as pulled here, with its size on the engine. */
  pulled(image: string, say: Say): Promise<void> {
    return this.serial(async () => {
      // Counted from now by its own size.
      this.underWay.delete(image);
      const bytes = await this.engine.imageSize(image);
      await this.ledger.record(image, bytes);
      if (bytes > this.budgetBytes)
        say(`image budget: ${image} alone takes ${formatBytes(bytes)}, more than the budget of ${formatBytes(this.budgetBytes)}; its task runs anyway`);
    });
  }

  // The recorded images still on the engine, with their size now; those gone meanwhile are forgotten.
  private async present(entries: PulledImage[]): Promise<PulledImage[]> {
    const present: PulledImage[] = [];
    for (const entry of entries) {
      const bytes = await this.engine.imageSize(entry.image).catch((error: { statusCode?: number }) => {
        if (error.statusCode === 404) return undefined;
        throw error;
      });
      if (bytes === undefined) await this.ledger.forget(entry.image);
      else present.push({ ...entry, bytes });
    }
    return present;
  }

  private async remove(entry: PulledImage, say: Say): Promise<boolean> {
    try {
      await this.engine.removeImage(entry.image);
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      if (status === 403) {
        this.refused = true;
        this.logger.warn(`image budget: the engine refuses to delete images (403: ${engineReason(error)}); nothing is removed, the budget is not kept`);
        return false;
      }
      // In use by a container (409), or another failure: it stays, and the next one is tried.
      if (status !== 404) {
        say(`image budget: could not remove ${entry.image}: ${engineReason(error)}`);
        return false;
      }
    }
    await this.ledger.forget(entry.image);
    say(`image budget: removed ${entry.image} (${formatBytes(entry.bytes)}), pulled here and used least recently`);
    return true;
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
