/** Where console lines are written: a process's stdout, or a stream a test reads. */
export interface ConsoleStream {
  write(text: string): unknown;
}

/**
 * Console lines gathered over one turn of the event loop and written as one. A process's stdout on a pipe
 * or a file is written synchronously, one write(2) per call: at 128 tasks the green agent printed some
 * 10,000 lines a run, each a system call on the event loop (its second largest item, after the task
 * store's copies). Lines logged in the same turn, by whatever task, now go out together when the turn's
 * I/O is done (setImmediate), in the order they were logged; what is still gathered when the process
 * exits is written then, synchronously. The task log files are not gathered (see AppendOnlyFile): they
 * are what survives a crash, line by line.
 */
export class BatchedConsoleStream implements ConsoleStream {
  private pending = '';
  private scheduled: NodeJS.Immediate | undefined;
  private readonly flushOnExit = (): void => this.flush();
  private writes = 0;

  constructor(private readonly target: ConsoleStream) {
    process.once('exit', this.flushOnExit);
  }

  /** Writes made to the target so far. */
  get writeCount(): number {
    return this.writes;
  }

  write(text: string): boolean {
    this.pending += text;
    // Nothing keeps the process up for it: an exit writes what is left.
    this.scheduled ??= setImmediate(() => this.flush()).unref();
    return true;
  }

  /** Writes what is gathered now. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.writes += 1;
    this.target.write(text);
  }

  /** Writes what is gathered and stops watching for the process's exit. */
  close(): void {
    this.flush();
    process.removeListener('exit', this.flushOnExit);
  }
}
