import { appendFileSync, closeSync, openSync, writeSync } from 'node:fs';

/**
 * A log file this process appends to through a descriptor it owns. Every append is a synchronous
 * write(2) of whole lines on an O_APPEND descriptor, finished before `append` returns: a line is in the
 * kernel's hands (and survives the process being killed) as soon as the log call is over, and lines from
 * both agents never tear into each other. After `close`, an append opens, writes and closes the file
 * again, so late lines are kept without holding a descriptor.
 */
export class AppendOnlyFile {
  private failureReported = false;

  private constructor(
    readonly path: string,
    private fd: number | undefined,
  ) {}

  /** Opens (creating) the file for appending; throws the system error when it cannot. */
  static open(path: string): AppendOnlyFile {
    return new AppendOnlyFile(path, openSync(path, 'a'));
  }

  get isOpen(): boolean {
    return this.fd !== undefined;
  }

  append(text: string): void {
    try {
      if (this.fd === undefined) appendFileSync(this.path, text);
      else writeFully(this.fd, Buffer.from(text, 'utf8'));
    } catch (error) {
      this.reportFailure(error);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  // A full disk must not take the agent down with it; say so once per file, on stderr, which still works.
  private reportFailure(error: unknown): void {
    if (this.failureReported) return;
    this.failureReported = true;
    process.stderr.write(`task-logging: cannot append to ${this.path}: ${(error as Error).message}\n`);
  }
}

function writeFully(fd: number, bytes: Buffer): void {
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
}
