import type { ProcessIdentity } from '@arvo-rca/common';

/** What `logs/.current_run` holds: the run directory (relative to LOG_DIR) and who created it when. */
export interface CurrentRunRecord {
  run: string;
  createdAt: string;
  creator: ProcessIdentity;
}

export interface FreshnessCheck {
  now: Date;
  /** A record younger than this is adopted even when its creator cannot be seen (another host, or exited). */
  recentMs: number;
  creatorRunning: (creator: ProcessIdentity) => boolean;
  runDirectoryExists: (run: string) => boolean;
}

export function serializeRecord(record: CurrentRunRecord): string {
  return `${JSON.stringify(record)}\n`;
}

/** The record, or undefined while it is empty or half written (or was never ours to read). */
export function parseRecord(text: string): CurrentRunRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<CurrentRunRecord>;
    const valid =
      typeof value.run === 'string' &&
      /^log_[0-9_-]+$/.test(value.run) &&
      typeof value.createdAt === 'string' &&
      typeof value.creator?.host === 'string' &&
      typeof value.creator.pid === 'number';
    return valid ? (value as CurrentRunRecord) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The freshness rule: a recorded run is adopted when its directory still exists and either its creator
 * still runs (same host, same pid, same start time) or it was recorded within the last `recentMs`.
 * Anything else is a leftover of an earlier run, however it ended.
 */
export function isFresh(record: CurrentRunRecord, check: FreshnessCheck): boolean {
  if (!check.runDirectoryExists(record.run)) return false;
  if (check.creatorRunning(record.creator)) return true;
  // Either way round: the clocks of two hosts sharing LOG_DIR may disagree a little.
  const age = check.now.getTime() - Date.parse(record.createdAt);
  return Math.abs(age) < check.recentMs;
}
