// What the engine says of a disk-usage call while another one's walk is under way (Docker 20.10).
const DISK_WALK_BUSY = /disk usage operation is already running/;
/** How long a disk-usage call refused that way asks again, and how often. */
const BUSY_TRIES_MS = 60_000;
const BUSY_PAUSE_MS = 100;

/**
 * A disk-usage call (`/system/df`) of the engine, asked again while the engine refuses it for another's
 * walk of its disk. The engine walks for one such call at a time and answers 500 to any that comes
 * meanwhile, from any client: a bench or a test beside another's call failed on it, and left what it had
 * made behind.
 */
export async function onceDiskWalkIsFree<T>(call: () => Promise<T>): Promise<T> {
  const until = Date.now() + BUSY_TRIES_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!DISK_WALK_BUSY.test((error as Error).message) || Date.now() >= until) throw error;
      await new Promise((resolve) => setTimeout(resolve, BUSY_PAUSE_MS));
    }
  }
}
