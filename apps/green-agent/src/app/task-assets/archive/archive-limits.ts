import { formatBytes } from '@arvo-rca/common';
import { quote, TaskAssetsError } from '../task-assets.errors';

/** What one task archive may unpack to; 0 turns a limit off. */
export interface ArchiveLimits {
  /** Bytes of all entries together (`ARCHIVE_MAX_BYTES`). */
  maxBytes: number;
  /** Files, folders and links created, counting the folders an entry implies (`ARCHIVE_MAX_ENTRIES`). */
  maxEntries: number;
  /** Bytes of one entry (`ARCHIVE_MAX_FILE_BYTES`). */
  maxFileBytes: number;
  /**
   * Bytes unpacked per compressed byte read so far (`ARCHIVE_MAX_COMPRESSION_RATIO`), node-tar's guard
   * against a small archive that unpacks without end. gzip packs all-zero data about 1030:1, so a real
   * tree of mostly zeros can pass the default.
   */
  maxCompressionRatio: number;
}

const GiB = 1024 ** 3;

// Real ARVO trees unpack to a few GiB and up to some hundred thousand files.
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = { maxBytes: 8 * GiB, maxEntries: 500_000, maxFileBytes: 2 * GiB, maxCompressionRatio: 1000 };

/** The compression-ratio guard as node-tar's parser takes it: 0 turns it off. */
export function parserRatioLimit(limits: ArchiveLimits): number {
  return limits.maxCompressionRatio > 0 ? limits.maxCompressionRatio : Infinity;
}

// node-tar's own words when its guard stops a parse.
const RATIO_EXCEEDED = /max decompression ratio exceeded: ([\d.]+) > ([\d.]+)/;

/** ARCHIVE_TOO_LARGE naming the compression-ratio guard, when `message` is its; undefined otherwise. */
export function compressionRatioRefusal(message: string, cause: unknown): TaskAssetsError | undefined {
  const seen = RATIO_EXCEEDED.exec(message);
  if (!seen) return undefined;
  const [, ratio, limit] = seen;
  return new TaskAssetsError(
    'ARCHIVE_TOO_LARGE',
    `archive refused by the compression-ratio guard: it unpacked to ${ratio} times the bytes read of it, past the limit of ${limit} ` +
      '(ARCHIVE_MAX_COMPRESSION_RATIO; raise it, or set 0 to turn the guard off, for a real tree of highly compressible files)',
    { cause },
  );
}

/**
 * Counts what one pass over an archive would write, and throws ARCHIVE_TOO_LARGE, naming the limit and
 * its variable, as soon as the count passes a limit. Both passes feed it the sizes the headers declare, at
 * each header: the writing pass writes no body past its declared size.
 */
export class ArchiveBudget {
  private totalBytes = 0;

  constructor(private readonly limits: ArchiveLimits) {}

  /** `entries`: how many paths the extraction has created so far, this one included. */
  countEntries(entries: number): void {
    const max = this.limits.maxEntries;
    if (max > 0 && entries > max) tooLarge(`it holds more than ${max.toLocaleString('en')} entries (ARCHIVE_MAX_ENTRIES)`);
  }

  /** `bytes` more of the entry at `path`, which then holds `entryBytes` in all. */
  countBytes(path: string, bytes: number, entryBytes: number): void {
    const { maxBytes, maxFileBytes } = this.limits;
    if (maxFileBytes > 0 && entryBytes > maxFileBytes) {
      tooLarge(`${quote(path)} holds more than ${formatBytes(maxFileBytes)}, the limit of one file (ARCHIVE_MAX_FILE_BYTES)`);
    }
    this.totalBytes += bytes;
    if (maxBytes > 0 && this.totalBytes > maxBytes) tooLarge(`it unpacks to more than ${formatBytes(maxBytes)} (ARCHIVE_MAX_BYTES)`);
  }
}

function tooLarge(reason: string): never {
  throw new TaskAssetsError('ARCHIVE_TOO_LARGE', `archive refused: ${reason}`);
}
