import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An image this green agent pulled itself: its size on the engine and when a task last needed it. */
export interface PulledImage {
  image: string;
  bytes: number;
  lastUsed: number;
}

const FILE = 'images-pulled.json';

/**
 * The images the green agent pulled itself, in `<cacheDir>/images-pulled.json`: the only ones its disk
 * budget may remove. An image that was on the engine when a task needed it is never written here.
 */
export class ImageLedger {
  private entries?: Map<string, PulledImage>;

  constructor(private readonly cacheDir: string) {}

  get path(): string {
    return join(this.cacheDir, FILE);
  }

  /** The pulled images, least recently used first. */
  async pulled(): Promise<PulledImage[]> {
    return [...(await this.load()).values()].sort((a, b) => a.lastUsed - b.lastUsed);
  }

  async has(image: string): Promise<boolean> {
    return (await this.load()).has(image);
  }

  async record(image: string, bytes: number, now = Date.now()): Promise<void> {
    (await this.load()).set(image, { image, bytes, lastUsed: now });
    await this.save();
  }

  /** Marks a pulled image as used now; an image it did not pull stays unrecorded. */
  async touch(image: string, now = Date.now()): Promise<void> {
    const entry = (await this.load()).get(image);
    if (!entry) return;
    entry.lastUsed = now;
    await this.save();
  }

  async forget(image: string): Promise<void> {
    if ((await this.load()).delete(image)) await this.save();
  }

  private async load(): Promise<Map<string, PulledImage>> {
    if (this.entries) return this.entries;
    const text = await readFile(this.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{"images":[]}';
      throw error;
    });
    const { images } = JSON.parse(text) as { images: PulledImage[] };
    this.entries = new Map(images.map((entry) => [entry.image, entry]));
    return this.entries;
  }

  // Written whole and renamed into place: a crash leaves the old file or the new one.
  private async save(): Promise<void> {
    await mkdir(this.cacheDir, { recursive: true, mode: 0o700 });
    const next = `${this.path}.${process.pid}.tmp`;
    await writeFile(next, `${JSON.stringify({ images: [...(this.entries ?? new Map()).values()] }, null, 2)}\n`);
    await rename(next, this.path);
  }
}
