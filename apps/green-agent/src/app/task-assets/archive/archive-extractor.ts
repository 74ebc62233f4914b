import { Injectable } from '@nestjs/common';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { Parser, ReadEntry } from 'tar';
import { DEFAULT_ARCHIVE_LIMITS, parserRatioLimit, type ArchiveLimits } from './archive-limits';
import { aborted, readArchive } from './archive-reader';
import { ArchiveWriter, type WritingPass } from './archive-writer';
import { EntryCheck } from './entry-check';

export interface ExtractOptions {
  /** Any left out are the defaults; 0 turns a limit off. */
  limits?: Partial<ArchiveLimits>;
  /** Aborting stops the extraction at once; it then rejects with EXTRACTION_ABORTED. */
  signal?: AbortSignal;
  /**
   * Gets the tar stream GNU tar writes the tree from (the entries the guard let through, under the paths it
   * checked, without owners or set-id bits) as it is written, and its end once the tree is complete; it is
   * closed without an end when the extraction fails. The extraction waits for its reader as for tar, and
   * goes on without it once it is closed.
   */
  copy?: Writable;
  /**
   * The files the host writes, by their path below the target (`src-vul/p/x.c`); all when absent. Folders and
   * symbolic links are always written; `copy` gets every entry whatever this says.
   */
  keep?: (path: string) => boolean;
  /** More files of an archive extracted before: `<target>/<scope>/` is there, and stays whatever happens. */
  adding?: boolean;
}

/**
 * Extracts task archives into `<target>/<scope>/`, streaming, in two passes. The header pass reads every
 * header with node-tar's parser and refuses the archive, before anything is written, when an entry would
 * land outside the scope, the declared sizes or the entry count pass a limit, or the archive is corrupt.
 * The writing pass checks it all again while GNU tar writes (ArchiveWriter). A failed or aborted writing
 * pass leaves no `<target>/<scope>/` behind (one adding to it leaves it as it was, with what it wrote).
 *
 * A tree with a copy (a container's, which waits for it) skips the header pass: the copy starts with the
 * archive's first entry instead of after a whole read of it. The writing pass's checks stop a bad archive
 * all the same, and the copy is then closed without its end, so its reader never takes a part for the tree.
 */
@Injectable()
export class ArchiveExtractor {
  private readonly writer = new ArchiveWriter();

  async extract(archive: string, targetDir: string, scope: string, options: ExtractOptions = {}): Promise<void> {
    const limits: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits };
    const signal = options.signal ?? new AbortController().signal;
    try {
      if (signal.aborted) throw aborted();
      if (!options.copy) await this.inspect(archive, scope, limits, signal);
      await mkdir(targetDir, { recursive: true });
      await this.write(archive, targetDir, scope, { limits, signal, copy: options.copy, keep: options.keep }, options.adding === true);
    } catch (error) {
      options.copy?.destroy();
      throw error;
    }
  }

  private async write(archive: string, targetDir: string, scope: string, pass: WritingPass, adding: boolean): Promise<void> {
    try {
      await this.writer.write(archive, targetDir, scope, pass);
    } catch (error) {
      if (!adding) await rm(join(targetDir, scope), { recursive: true, force: true, maxRetries: 3 });
      throw error;
    }
  }

  private async inspect(archive: string, scope: string, limits: ArchiveLimits, signal: AbortSignal): Promise<void> {
    const check = new EntryCheck(scope, limits);
    const parser: Parser = new Parser({
      strict: true,
      maxDecompressionRatio: parserRatioLimit(limits),
      filter: (_path, entry) => {
        if (!(entry instanceof ReadEntry)) return false;
        try {
          check.admit(entry);
        } catch (error) {
          parser.abort(error instanceof Error ? error : new Error(String(error)));
        }
        // Headers only: the bodies are skipped unread.
        return false;
      },
    });
    await readArchive(archive, parser, signal);
  }
}
