import { formatBytes } from '@arvo-rca/common';
import { Transform } from 'node:stream';

/** Where the task assets write their progress and retry notes: the task's log. */
export type AssetLog = (message: string) => void;

const PROGRESS_STEPS = 10;

/** Counts the bytes of one download and reports big ones in tenths (or in `minBytes` strides when the size is unknown). */
export class DownloadProgress {
  bytes = 0;
  private readonly startedAt = Date.now();
  private readonly big: boolean;
  private nextReportAt: number;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly log: AssetLog,
    private readonly minBytes: number,
  ) {
    this.big = total === undefined || total >= minBytes;
    this.nextReportAt = this.stride();
    if (this.big) log(`${label}: downloading ${total === undefined ? '(size unknown)' : formatBytes(total)}`);
  }

  /** A pass-through stream that counts what flows through it. */
  meter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.count(chunk.length);
        done(null, chunk);
      },
    });
  }

  finish(): void {
    if (!this.big) return;
    const seconds = (Date.now() - this.startedAt) / 1000;
    this.log(`${this.label}: downloaded ${formatBytes(this.bytes)} in ${seconds.toFixed(1)} s`);
  }

  private count(length: number): void {
    this.bytes += length;
    if (!this.big || this.bytes < this.nextReportAt) return;
    if (this.total !== undefined && this.bytes >= this.total) return;
    const share = this.total === undefined ? '' : ` (${Math.floor((this.bytes / this.total) * 100)}%)`;
    this.log(`${this.label}: ${formatBytes(this.bytes)}${share}`);
    while (this.nextReportAt <= this.bytes) this.nextReportAt += this.stride();
  }

  private stride(): number {
    return this.total === undefined ? this.minBytes : Math.max(1, Math.ceil(this.total / PROGRESS_STEPS));
  }
}
