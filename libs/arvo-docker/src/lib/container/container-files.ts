import type { DiskMeter, DiskUse, FolderCounter } from '@arvo-rca/sandbox';
import type { ContainerHandle } from '../engine/container-handle';

/**
 * One look at a container's writes: its bytes (the engine's `SizeRw`) and its files. The files are counted
 * in its writable layer's folder from this host where the engine is local and the folder can be read (by
 * `counter`, given then: `find` in one helper the factory's tasks share, off the event loop and with no fork
 * of the agent per look; nothing inside the container can make it lie), else through the
 * engine's `/changes` (a remote engine, an engine in a virtual machine, an agent not allowed to read the
 * engine's data root): slower, but the engine's own walk of the layer, never the container's word.
 */
export function containerDiskMeter(container: ContainerHandle, counter: FolderCounter | undefined): DiskMeter {
  let layer: Promise<string | undefined> | undefined;
  const files = async (): Promise<number> => {
    if (counter) {
      layer ??= container.layerDir().catch(() => undefined);
      const dir = await layer;
      const counted = dir === undefined ? undefined : await counter.count(dir).catch(() => undefined);
      if (counted !== undefined) return counted;
    }
    return container.changeCount();
  };
  return async (): Promise<DiskUse> => {
    const [bytes, made] = await Promise.all([container.writtenBytes(), files()]);
    return { bytes: bytes ?? 0, files: made };
  };
}
