import pLimit from 'p-limit';

/** Runs engine-heavy work (container start, removal) a few at a time. */
export type EngineGate = <T>(work: () => Promise<T>) => Promise<T>;

/** How long one piece of work may hold its place in the gate; a normal start takes well under a second. */
export const ENGINE_SLOT_LIMIT_MS = 60_000;

/**
 * At most `concurrency` pieces of work at once. A piece that takes longer than `slotLimitMs` (an engine
 * call that hangs) keeps its caller waiting but frees its place, so one stuck task cannot stall the
 * starts and removals of all the others.
 */
export function createEngineGate(concurrency: number, slotLimitMs = ENGINE_SLOT_LIMIT_MS): EngineGate {
  const limit = pLimit(concurrency);
  return <T>(work: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      void limit(async () => {
        const running = work();
        running.then(resolve, reject);
        let timer: NodeJS.Timeout | undefined;
        const freed = new Promise<void>((done) => (timer = setTimeout(done, slotLimitMs)));
        await Promise.race([running.then(() => undefined, () => undefined), freed]);
        clearTimeout(timer);
      });
    });
}
