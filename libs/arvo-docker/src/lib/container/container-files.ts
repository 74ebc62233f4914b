import type { DiskMeter, DiskUse, FolderCounter } from '@arvo-rca/sandbox';
import type { ContainerHandle } from '../engine/container-handle';

/**
 * One look at a container's writes: its bytes (as the engine's `SizeRw` counts them) and its files. Where
 * the engine is local and its writable layer's folder can be read (`counter` given then), both are counted
 * there from this host: walked in one thread the factory's tasks share, off the event loop, with no process
 * of the agent per look and no call to the engine (128 tasks' looks were 64 engine calls a second, each a
 * walk of the layer, slowing the other tasks' starts); nothing inside the container can make it lie. Else
 * (a remote engine, an engine in a virtual machine, an agent not allowed to read the engine's data root)
 * the engine's `SizeRw` and `/changes`: slower, but the engine's own walks of the layer, never the
 * container's word.
 */
export function containerDiskMeter(container: ContainerHandle, counter: FolderCounter | undefined): DiskMeter {
  let layer: Promise<string | undefined> | undefined;
  const fromHost = async (): Promise<DiskUse | undefined> => {
    if (!counter) return undefined;
    layer ??= container.layerDir().catch(() => undefined);
    const dir = await layer;
    return dir === undefined ? undefined : counter.count(dir).catch(() => undefined);
  };
  return async (): Promise<DiskUse> => {
    const counted = await fromHost();
    if (counted) return counted;
    const [bytes, files] = await Promise.all([container.writtenBytes(), container.changeCount()]);
    return { bytes: bytes ?? 0, files };
  };
}
