import { quote } from './task-assets.errors';

/** An archive entry as the guard sees it (a subset of tar's ReadEntry). */
export interface ArchiveEntry {
  path: string;
  type: string;
  linkpath?: string;
}

export type EntryVerdict = { action: 'extract' } | { action: 'skip' } | { action: 'refuse'; reason: string };

const FILE_TYPES = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'GNUDumpDir']);
const MAX_LINK_DEPTH = 40;

/**
 * Decides entry by entry whether an archive stays inside `<scope>/` (e.g. `src-vul/`). Links are followed
 * through the symbolic links already let through, as the filesystem would, so that `a -> b/..` chains
 * cannot climb out where a purely lexical check would say they stay inside.
 */
export class ArchiveEntryGuard {
  private readonly symlinks = new Map<string, string>();
  private readonly seen = new Set<string>();

  constructor(private readonly scope: string) {}

  check(entry: ArchiveEntry): EntryVerdict {
    const verdict = this.judge(entry);
    if (verdict.action === 'extract') this.remember(entry);
    return verdict;
  }

  private judge(entry: ArchiveEntry): EntryVerdict {
    const name = quote(entry.path);
    if (isAbsolute(entry.path)) return refuse(`entry ${name} has an absolute path`);
    const segments = split(entry.path);
    if (segments.includes('..')) return refuse(`entry ${name} contains '..'`);
    // The archive's own root (`./`) carries nothing worth extracting.
    if (segments.length === 0) return { action: 'skip' };
    if (segments[0] !== this.scope) return refuse(`entry ${name} is outside ${this.scope}/`);
    const key = segments.join('/');
    if (this.symlinks.has(key)) return refuse(`entry ${name} replaces a symbolic link`);
    const parent = segments.length > 1 ? this.resolve(segments.slice(0, -1)) : [this.scope];
    if (!parent || !this.inScope(parent)) return refuse(`entry ${name} lies behind a link that leaves ${this.scope}/`);

    if (entry.type === 'SymbolicLink') return this.judgeSymlink(entry, segments, key);
    if (entry.type === 'Link') return this.judgeHardLink(entry);
    // Devices, FIFOs and the like have no place in a source tree; tar would not create them anyway.
    return FILE_TYPES.has(entry.type) ? { action: 'extract' } : { action: 'skip' };
  }

  private judgeSymlink(entry: ArchiveEntry, segments: string[], key: string): EntryVerdict {
    const link = entry.linkpath ?? '';
    const shown = `symbolic link ${quote(entry.path)} -> ${quote(link)}`;
    if (this.seen.has(key)) return refuse(`${shown} replaces an earlier entry`);
    if (link === '' || isAbsolute(link)) return refuse(`${shown} points to an absolute path`);
    const target = this.resolve([...segments.slice(0, -1), ...split(link)]);
    return target && this.inScope(target) ? { action: 'extract' } : refuse(`${shown} points outside ${this.scope}/`);
  }

  private judgeHardLink(entry: ArchiveEntry): EntryVerdict {
    const link = entry.linkpath ?? '';
    const shown = `hard link ${quote(entry.path)} -> ${quote(link)}`;
    if (link === '' || isAbsolute(link)) return refuse(`${shown} points to an absolute path`);
    // A hard link names another entry of the archive, relative to the archive's root.
    const target = this.resolve(split(link));
    return target && this.inScope(target) ? { action: 'extract' } : refuse(`${shown} points outside ${this.scope}/`);
  }

  private remember(entry: ArchiveEntry): void {
    const segments = split(entry.path);
    for (let i = 1; i <= segments.length; i++) this.seen.add(segments.slice(0, i).join('/'));
    if (entry.type === 'SymbolicLink') this.symlinks.set(segments.join('/'), entry.linkpath ?? '');
  }

  /** The physical location of a path below the extraction root, or undefined when it climbs above it. */
  private resolve(segments: readonly string[], depth = 0): string[] | undefined {
    const out: string[] = [];
    for (const segment of segments) {
      if (segment === '..') {
        if (out.pop() === undefined) return undefined;
        continue;
      }
      out.push(segment);
      const link = this.symlinks.get(out.join('/'));
      if (link === undefined) continue;
      if (depth >= MAX_LINK_DEPTH || isAbsolute(link)) return undefined;
      const followed = this.resolve([...out.slice(0, -1), ...split(link)], depth + 1);
      if (!followed) return undefined;
      out.splice(0, out.length, ...followed);
    }
    return out;
  }

  private inScope(segments: readonly string[]): boolean {
    return segments[0] === this.scope;
  }
}

function refuse(reason: string): EntryVerdict {
  return { action: 'refuse', reason };
}

// Backslashes count as separators too: stricter than Linux needs, and safe on every platform.
function split(path: string): string[] {
  return path.split(/[/\\]+/).filter((segment) => segment !== '' && segment !== '.');
}

function isAbsolute(path: string): boolean {
  return /^[/\\]/.test(path) || /^[A-Za-z]:/.test(path);
}
