import { formatBytes } from '@arvo-rca/common';
import { quote } from '../task-assets.errors';

/** An archive entry as the guard sees it (a subset of tar's ReadEntry). */
export interface ArchiveEntry {
  path: string;
  type: string;
  linkpath?: string;
}

/**
 * `path` is where the entry goes, '/'-separated below the extraction root, with the links before it already
 * followed: write it under that name and nothing is written through a link. `linkpath` is what a link
 * should hold: a symbolic link's own text, or the checked location of a hard link's file.
 */
export type EntryVerdict = { action: 'extract'; path: string; linkpath?: string } | { action: 'skip' } | { action: 'refuse'; reason: string };

/** What the guard knows of one path below the extraction root. */
interface PathNode {
  kind: 'dir' | 'file' | 'link';
  /** A symbolic link's target. */
  target?: string;
  children?: Map<string, PathNode>;
}

type Resolution = { kind: 'path'; segments: string[]; node: PathNode | undefined } | { kind: 'outside' } | { kind: 'through-file' };

const KINDS = new Map<string, PathNode['kind']>([
  ['File', 'file'],
  ['OldFile', 'file'],
  ['ContiguousFile', 'file'],
  ['Directory', 'dir'],
  ['GNUDumpDir', 'dir'],
]);
// Linux's own bounds: no longer path, file name or link target can exist on disk.
const PATH_MAX = 4096;
const NAME_MAX = 255;
// As the kernel's MAXSYMLINKS; the step bound keeps a path of many links from costing more than a few
// thousand lookups.
const MAX_LINK_FOLLOWS = 40;
const MAX_RESOLVE_STEPS = 4096;
// Link targets are the one thing the guard keeps whole; real trees need a tiny fraction of this.
const MAX_LINK_TEXT_BYTES = 16 * 1024 * 1024;
const OUTSIDE: Resolution = { kind: 'outside' };
const THROUGH_FILE: Resolution = { kind: 'through-file' };

/**
 * Decides entry by entry whether an archive stays inside `<scope>/` (e.g. `src-vul/`). Paths are resolved
 * through the symbolic links already let through, as the filesystem would, so that `a -> b/..` chains
 * cannot climb out where a purely lexical check would say they stay inside. An absolute link is kept (in
 * the task's container it names the container's own file), and a path behind one leaves the scope.
 *
 * It remembers every path it lets through in a tree of names, so its memory grows with the paths created
 * (which ARCHIVE_MAX_ENTRIES bounds: `paths`), at most a name of 255 bytes each.
 */
export class ArchiveEntryGuard {
  private readonly root: PathNode = { kind: 'dir' };
  private created = 0;
  private linkTextBytes = 0;

  constructor(private readonly scope: string) {}

  /** How many paths the entries let through create: files, folders, links and the folders they imply. */
  get paths(): number {
    return this.created;
  }

  check(entry: ArchiveEntry): EntryVerdict {
    const verdict = this.judge(entry);
    if (verdict.action === 'extract') this.remember(verdict.path.split('/'), entry, verdict.linkpath);
    return verdict;
  }

  private judge(entry: ArchiveEntry): EntryVerdict {
    const name = (): string => quote(entry.path);
    if (isAbsolute(entry.path)) return refuse(`entry ${name()} has an absolute path`);
    if (climbs(entry.path)) return refuse(`entry ${name()} contains '..'`);
    const segments = split(entry.path);
    // The archive's own root (`./`) carries nothing worth extracting.
    if (segments.length === 0) return { action: 'skip' };
    if (segments[0] !== this.scope) return refuse(`entry ${name()} is outside ${this.scope}/`);
    if (Buffer.byteLength(entry.path) >= PATH_MAX || segments.some((segment) => Buffer.byteLength(segment) > NAME_MAX)) {
      return refuse(`entry ${name()} has a path longer than a file system allows`);
    }
    const kind = entry.type === 'SymbolicLink' || entry.type === 'Link' ? 'link' : KINDS.get(entry.type);
    if (segments.length === 1 && kind !== 'dir') return refuse(`entry ${name()} must be a folder`);

    const parent: Resolution = segments.length === 1 ? { kind: 'path', segments: [], node: this.root } : this.resolve(segments.slice(0, -1));
    if (parent.kind === 'through-file') return refuse(`entry ${name()} lies inside a file`);
    if (parent.kind === 'outside' || (segments.length > 1 && !this.inScope(parent.segments))) {
      return refuse(`entry ${name()} lies behind a link that leaves ${this.scope}/`);
    }
    if (parent.node?.kind === 'file') return refuse(`entry ${name()} lies inside a file`);
    const path = [...parent.segments, segments[segments.length - 1]];
    const existing = parent.node?.children?.get(path[path.length - 1]);
    if (existing?.kind === 'link') return refuse(`entry ${name()} replaces a symbolic link`);
    if (existing?.kind === 'dir' && kind !== 'dir') return refuse(`entry ${name()} replaces a folder`);

    if (entry.type === 'SymbolicLink') return this.judgeSymlink(entry, path, existing !== undefined);
    if (entry.type === 'Link') return this.judgeHardLink(entry, path);
    // Devices, FIFOs and the like have no place in a source tree; tar would not create them anyway.
    return kind ? { action: 'extract', path: path.join('/') } : { action: 'skip' };
  }

  private judgeSymlink(entry: ArchiveEntry, path: string[], replaces: boolean): EntryVerdict {
    const link = entry.linkpath ?? '';
    const shown = `symbolic link ${quote(entry.path)} -> ${quote(link)}`;
    if (replaces) return refuse(`${shown} replaces an earlier entry`);
    if (link === '') return refuse(`${shown} has no target`);
    if (Buffer.byteLength(link) >= PATH_MAX) return refuse(`${shown} has a target longer than a file system allows`);
    if (this.linkTextBytes + link.length > MAX_LINK_TEXT_BYTES) {
      return refuse(`${shown} passes ${formatBytes(MAX_LINK_TEXT_BYTES)} of link targets, far more than a source tree has`);
    }
    if (isAbsolute(link)) return { action: 'extract', path: path.join('/'), linkpath: link };
    // Inside as Linux reads it, and inside too where backslashes would separate (stricter than Linux needs).
    const inside = [split(link), splitAtBackslashesToo(link)].every((target) => this.stays([...path.slice(0, -1), ...target]));
    return inside ? { action: 'extract', path: path.join('/'), linkpath: link } : refuse(`${shown} points outside ${this.scope}/`);
  }

  private judgeHardLink(entry: ArchiveEntry, path: string[]): EntryVerdict {
    const link = entry.linkpath ?? '';
    const shown = `hard link ${quote(entry.path)} -> ${quote(link)}`;
    if (link === '' || isAbsolute(link)) return refuse(`${shown} points to an absolute path`);
    // A hard link names another entry of the archive, relative to the archive's root.
    const target = this.resolve(split(link));
    if (target.kind !== 'path' || !this.inScope(target.segments)) return refuse(`${shown} points outside ${this.scope}/`);
    if (target.node?.kind !== 'file') return refuse(`${shown} names no file extracted before it`);
    return { action: 'extract', path: path.join('/'), linkpath: target.segments.join('/') };
  }

  /** Records the path (implied folders included) as the filesystem will hold it once the entry is written. */
  private remember(segments: readonly string[], entry: ArchiveEntry, linkpath: string | undefined): void {
    let node = this.root;
    for (const segment of segments) {
      node.children ??= new Map();
      let child = node.children.get(segment);
      if (!child) {
        child = { kind: 'dir' };
        node.children.set(detach(segment), child);
        this.created += 1;
      }
      node = child;
    }
    if (entry.type === 'SymbolicLink' && linkpath !== undefined) {
      node.kind = 'link';
      node.target = detach(linkpath);
      this.linkTextBytes += linkpath.length;
    } else {
      node.kind = entry.type === 'Link' ? 'file' : (KINDS.get(entry.type) ?? 'file');
    }
  }

  /** The physical location of a path below the extraction root, following the links recorded so far. */
  private resolve(segments: readonly string[], budget = { steps: 0, follows: 0 }): Resolution {
    const out: string[] = [];
    // trail[i] is the node of out[0..i], undefined where nothing was extracted yet.
    const trail: Array<PathNode | undefined> = [];
    for (const segment of segments) {
      if (++budget.steps > MAX_RESOLVE_STEPS) return OUTSIDE;
      if (segment === '..') {
        if (out.pop() === undefined) return OUTSIDE;
        trail.pop();
        continue;
      }
      const parent = trail.length === 0 ? this.root : trail[trail.length - 1];
      if (parent?.kind === 'file') return THROUGH_FILE;
      const node = parent?.children?.get(segment);
      out.push(segment);
      trail.push(node);
      if (node?.kind !== 'link' || node.target === undefined) continue;
      if (isAbsolute(node.target) || ++budget.follows > MAX_LINK_FOLLOWS) return OUTSIDE;
      const followed = this.resolve([...out.slice(0, -1), ...split(node.target)], budget);
      if (followed.kind !== 'path') return followed;
      out.splice(0, out.length, ...followed.segments);
      trail.splice(0, trail.length, ...this.trailOf(followed.segments));
    }
    return { kind: 'path', segments: out, node: trail.length === 0 ? this.root : trail[trail.length - 1] };
  }

  private trailOf(segments: readonly string[]): Array<PathNode | undefined> {
    const trail: Array<PathNode | undefined> = [];
    let node: PathNode | undefined = this.root;
    for (const segment of segments) {
      node = node?.children?.get(segment);
      trail.push(node);
    }
    return trail;
  }

  private stays(segments: readonly string[]): boolean {
    const target = this.resolve(segments);
    return target.kind === 'path' && this.inScope(target.segments);
  }

  private inScope(segments: readonly string[]): boolean {
    return segments[0] === this.scope;
  }
}

function refuse(reason: string): EntryVerdict {
  return { action: 'refuse', reason };
}

// Paths are split as Linux splits them, where GNU tar writes them and the engine copies them: a backslash
// is part of a name (systemd's unit files carry `\x2d` in theirs), and reading it as a separator would
// move such a file into a folder that does not exist.
function split(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '' && segment !== '.');
}

function splitAtBackslashesToo(path: string): string[] {
  return path.split(/[/\\]+/).filter((segment) => segment !== '' && segment !== '.');
}

/** Whether a path holds '..', where slashes or backslashes separate: refused, though Linux sees no '..' in `a\..`. */
function climbs(path: string): boolean {
  return splitAtBackslashesToo(path).includes('..');
}

function isAbsolute(path: string): boolean {
  return /^[/\\]/.test(path) || /^[A-Za-z]:/.test(path);
}

/**
 * A copy that shares no memory with its source: a substring from split() keeps the whole string it was cut
 * from alive (up to a 1 MiB extended header), which would make the guard's memory grow with paths' lengths.
 */
function detach(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
