import { isRecord, UsageLedger, type LedgerFormat } from '@arvo-rca/common';

/** An image this green agent pulled itself: its size on the engine and when a task last needed it. */
export interface PulledImage {
  image: string;
  bytes: number;
  lastUsed: number;
}

const FORMAT: LedgerFormat<PulledImage> = { name: 'images-pulled.json', list: 'images', key: (entry) => entry.image, isEntry: isPulledImage };

/**
 * The images the green agent pulled itself, in `<cacheDir>/images-pulled.json`: the only ones its disk
 * budget may remove. An image that was on the engine when a task needed it is never written here.
 */
export class ImageLedger extends UsageLedger<PulledImage> {
  constructor(cacheDir: string) {
    super(cacheDir, FORMAT);
  }

  /** `image`, pulled just now, with its size on the engine. */
  record(image: string, bytes: number, now = Date.now()): Promise<void> {
    return this.put({ image, bytes, lastUsed: now });
  }
}

// What the budget would count and remove: a name, and a size it can add up. Anything else in the file is dropped.
function isPulledImage(entry: unknown): entry is PulledImage {
  if (!isRecord(entry)) return false;
  const { image, bytes, lastUsed } = entry;
  return typeof image === 'string' && image !== '' && typeof bytes === 'number' && Number.isFinite(bytes) && bytes >= 0 && typeof lastUsed === 'number';
}
