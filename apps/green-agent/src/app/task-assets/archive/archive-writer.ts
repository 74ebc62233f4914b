import type { Writable } from 'node:stream';
import { Header, Pax, Parser, ReadEntry, type HeaderData } from 'tar';
import { parserRatioLimit, type ArchiveLimits } from './archive-limits';
import { readArchive } from './archive-reader';
import { EntryCheck, type CheckedEntry } from './entry-check';
import { GnuTarProcess } from './gnu-tar-process';
import { TreeCopy } from './tree-copy';

const BLOCK = 512;
const TYPES = new Map<string, 'File' | 'Directory' | 'SymbolicLink' | 'Link'>([
  ['File', 'File'],
  ['OldFile', 'File'],
  ['ContiguousFile', 'File'],
  ['Directory', 'Directory'],
  ['GNUDumpDir', 'Directory'],
  ['SymbolicLink', 'SymbolicLink'],
  ['Link', 'Link'],
]);
// Beyond what a 12-digit octal field holds; such a date is noise, not a source file's.
const MAX_MTIME_MS = 8 ** 11 * 1000;

/**
 * The writing pass. GNU tar writes the tree: node-tar's unpacker held every path it made in memory (787 MB
 * for 200,000 empty files), GNU tar holds next to none. It is not handed the archive, but a new tar stream
 * of the entries the guard lets through, each under the path the guard checked: so it writes exactly what
 * was checked, whatever the two parsers might read differently, and never sees owners, setuid or setgid
 * bits (files are 0755 or 0644 by their exec bit, folders 0755), sparse maps or vendor headers. Entries
 * and their sizes are counted at each header, as the header pass counts them, and no body is written past
 * its size: an entry that passes a limit is refused before a byte of it is written, here or to the copy
 * (which gets the tree without a header pass before it).
 */
export class ArchiveWriter {
  async write(archive: string, targetDir: string, scope: string, pass: WritingPass): Promise<void> {
    const { limits, signal, copy, keep } = pass;
    const check = new EntryCheck(scope, limits);
    const chosen = new WeakMap<ReadEntry, CheckedEntry>();
    const onHost = new HostShare(keep);
    const tar = await GnuTarProcess.extractInto(targetDir, copy && new TreeCopy(copy));
    const parser: Parser = new Parser({
      strict: true,
      maxDecompressionRatio: parserRatioLimit(limits),
      filter: (_path, entry) => {
        if (!(entry instanceof ReadEntry)) return false;
        const checked = this.attempt(parser, () => check.admit(entry));
        if (checked) chosen.set(entry, checked);
        return checked !== undefined;
      },
    });
    parser.on('entry', (entry: ReadEntry) => {
      const written = chosen.get(entry);
      if (written) this.forward(entry, written, tar, onHost);
      else entry.resume();
    });
    const kill = (): void => void tar.kill();
    signal.addEventListener('abort', kill);
    try {
      await readArchive(archive, parser, signal, () => tar.drained());
      await tar.finish();
    } catch (error) {
      await tar.kill();
      // A tar that failed on its own (a full disk) explains the stop better than what the reader saw.
      throw tar.failure() ?? error;
    } finally {
      signal.removeEventListener('abort', kill);
    }
  }

  /** Runs a check; when it throws, the pass stops with its error. */
  private attempt<T>(parser: Parser, check: () => T): T | undefined {
    try {
      return check();
    } catch (error) {
      parser.abort(error instanceof Error ? error : new Error(String(error)));
      return undefined;
    }
  }

  private forward(entry: ReadEntry, written: CheckedEntry, tar: GnuTarProcess, onHost: HostShare): void {
    const type = TYPES.get(entry.type) ?? 'File';
    const size = type === 'File' ? entry.size : 0;
    const toHost = onHost.takes(type, written);
    tar.write(headerBlocks(entry, written, type, size), toHost);
    let total = 0;
    // 'end' first: a body-less entry ends as soon as it is read.
    entry.on('end', () => {
      if (total !== size) return;
      const padding = (BLOCK - (size % BLOCK)) % BLOCK;
      if (padding > 0) tar.write(Buffer.alloc(padding), toHost);
    });
    entry.on('data', (chunk: Buffer) => {
      if (type !== 'File' || total + chunk.length > size) return;
      total += chunk.length;
      tar.write(chunk, toHost);
    });
  }
}

/** What one writing pass gets: its limits, its stop, and who else gets the tree. */
export interface WritingPass {
  limits: ArchiveLimits;
  signal: AbortSignal;
  /** Gets the stream GNU tar is fed, with every checked entry (those the host does not keep too), as it is written. */
  copy?: Writable;
  /** The files the host writes, by their checked path; all when absent. Folders and symbolic links are always written. */
  keep?: (path: string) => boolean;
}

/** Which entries the host writes: every folder and symbolic link, the files `keep` names, and hard links to those. */
class HostShare {
  private readonly kept = new Set<string>();

  constructor(private readonly keep: ((path: string) => boolean) | undefined) {}

  takes(type: 'File' | 'Directory' | 'SymbolicLink' | 'Link', written: CheckedEntry): boolean {
    if (!this.keep || type === 'Directory' || type === 'SymbolicLink') return true;
    // A hard link needs its file on the host: when that was left out, so is the link.
    const taken = type === 'Link' ? written.linkpath !== undefined && this.kept.has(written.linkpath) : this.keep(written.path);
    if (taken) this.kept.add(written.path);
    return taken;
  }
}

/** The header of the entry as GNU tar should write it, with an extended header when a path needs one. */
function headerBlocks(entry: ReadEntry, written: CheckedEntry, type: 'File' | 'Directory' | 'SymbolicLink' | 'Link', size: number): Buffer {
  const fields: HeaderData = {
    path: type === 'Directory' ? `${written.path}/` : written.path,
    type,
    mode: modeOf(type, entry.mode ?? 0),
    // Root's, said outright: the host's tar restores no owner, but a copy of this stream (an engine's) may.
    uid: 0,
    gid: 0,
    size,
    mtime: plausible(entry.mtime),
    linkpath: written.linkpath,
  };
  const header = new Header(fields);
  const block = Buffer.alloc(BLOCK);
  header.encode(block, 0);
  if (!header.needPax) return block;
  return Buffer.concat([new Pax({ path: fields.path, linkpath: fields.linkpath, size }).encode(), block]);
}

/** rwx only, never setuid, setgid or sticky, and the same for every user: the archive's owners are not ours. */
function modeOf(type: 'File' | 'Directory' | 'SymbolicLink' | 'Link', archived: number): number {
  if (type === 'Directory') return 0o755;
  if (type === 'SymbolicLink') return 0o777;
  return type === 'File' && (archived & 0o111) !== 0 ? 0o755 : 0o644;
}

function plausible(mtime: Date | undefined): Date | undefined {
  const ms = mtime?.getTime();
  return ms !== undefined && Number.isFinite(ms) && ms >= 0 && ms < MAX_MTIME_MS ? mtime : undefined;
}
