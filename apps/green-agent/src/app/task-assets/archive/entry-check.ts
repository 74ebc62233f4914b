import type { ReadEntry } from 'tar';
import { ArchiveEntryGuard } from './archive-entry-guard';
import { ArchiveBudget, type ArchiveLimits } from './archive-limits';
import { TaskAssetsError } from '../task-assets.errors';

/** Where a checked entry goes, below the extraction root, and what its link holds (ArchiveEntryGuard). */
export interface CheckedEntry {
  path: string;
  linkpath?: string;
}

/**
 * The checks both passes make at each header: where the entry goes (the guard) and what it adds to the
 * archive's count of entries and of bytes, by the size its header declares.
 */
export class EntryCheck {
  private readonly guard: ArchiveEntryGuard;
  private readonly budget: ArchiveBudget;

  constructor(scope: string, limits: ArchiveLimits) {
    this.guard = new ArchiveEntryGuard(scope);
    this.budget = new ArchiveBudget(limits);
  }

  /** The entry's checked place; undefined for one to skip. Throws BROKEN_ARCHIVE or ARCHIVE_TOO_LARGE. */
  admit(entry: ReadEntry): CheckedEntry | undefined {
    const verdict = this.guard.check({ path: entry.path, type: entry.type, linkpath: entry.linkpath });
    if (verdict.action === 'refuse') throw new TaskAssetsError('BROKEN_ARCHIVE', `archive refused: ${verdict.reason}`);
    if (verdict.action === 'skip') return undefined;
    this.budget.countEntries(this.guard.paths);
    this.budget.countBytes(verdict.path, entry.size, entry.size);
    return verdict;
  }
}
