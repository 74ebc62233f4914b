import type { Writable } from 'node:stream';

/**
 * A second reader of the checked tar stream GNU tar is fed: a container sandbox copies the tree in through
 * it while the host writes it. Writes wait for it as they wait for tar; once it is closed (a sandbox whose
 * start failed closes it), nothing more goes to it and the extraction goes on without it.
 */
export class TreeCopy {
  private closed = false;

  constructor(private readonly out: Writable) {
    out.once('close', () => (this.closed = true));
    // Its reader's failure is its reader's to report; here it only ends the copy.
    out.on('error', () => (this.closed = true));
  }

  write(chunk: Buffer): void {
    if (!this.closed && !this.out.writableEnded) this.out.write(chunk);
  }

  /** Settles once the reader has taken what it was given, or is gone. */
  drained(): Promise<void> {
    if (this.closed || !this.out.writableNeedDrain) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.out.off('drain', done);
        this.out.off('close', done);
        resolve();
      };
      this.out.on('drain', done);
      this.out.on('close', done);
    });
  }

  /** The whole tree went through. */
  end(): void {
    if (!this.closed) this.out.end();
  }

  /** The extraction failed: its reader must not take a part of the tree for the whole. */
  abandon(): void {
    if (!this.closed) this.out.destroy();
  }
}
