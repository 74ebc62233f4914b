import type { PullProgress } from '@arvo-rca/sandbox';
import type { PullEvent } from '../engine/container-handle';

interface Layer {
  total: number;
  downloaded: number;
  done: boolean;
}

// The statuses the engine gives a layer (its id is the layer's short digest), from first seen to done.
const LAYER_STATUS = /^(Pulling fs layer|Waiting|Downloading|Verifying Checksum|Download complete|Extracting|Pull complete|Already exists)$/;
const DOWNLOADED = /^(Verifying Checksum|Download complete|Extracting|Pull complete)$/;
const DONE = /^(Pull complete|Already exists)$/;

/**
 * One pull's figures, from the engine's progress events: its layers, how many are on the engine (those it
 * had already count as done), and the bytes to download as far as the registry has said them.
 */
export class PullTracker {
  private readonly layers = new Map<string, Layer>();

  constructor(readonly image: string) {}

  /** Takes an event in; true when a layer it downloaded is now on the engine, which is worth telling at once. */
  update(event: PullEvent): boolean {
    if (!event.id || !event.status || !LAYER_STATUS.test(event.status)) return false;
    const known = this.layers.get(event.id);
    const layer = known ?? { total: 0, downloaded: 0, done: false };
    this.layers.set(event.id, layer);
    const { current, total } = event.progressDetail ?? {};
    if (event.status === 'Downloading') {
      if (total) layer.total = total;
      if (current !== undefined) layer.downloaded = current;
    }
    if (DOWNLOADED.test(event.status)) layer.downloaded = layer.total;
    const done = DONE.test(event.status) && !layer.done;
    if (done) layer.done = true;
    return done && known !== undefined && event.status === 'Pull complete';
  }

  progress(): PullProgress {
    const layers = [...this.layers.values()];
    return {
      image: this.image,
      layers: layers.length,
      layersDone: layers.filter((layer) => layer.done).length,
      bytes: layers.reduce((sum, layer) => sum + layer.total, 0),
      bytesDone: layers.reduce((sum, layer) => sum + layer.downloaded, 0),
    };
  }
}
