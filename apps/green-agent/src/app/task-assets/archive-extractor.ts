import { Injectable } from '@nestjs/common';
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { Parser, ReadEntry, Unpack } from 'tar';
import { ArchiveEntryGuard } from './archive-entry-guard';
import { TaskAssetsError } from './task-assets.errors';

/**
 * Extracts task archives, streaming and off the event loop. A first pass reads every header and refuses the
 * archive when one entry would land outside `<target>/<scope>/` (or the archive is corrupt), before anything
 * is written; the second pass extracts, guarded again.
 */
@Injectable()
export class ArchiveExtractor {
  async extract(archive: string, targetDir: string, scope: string): Promise<void> {
    await this.inspect(archive, scope);
    await mkdir(targetDir, { recursive: true });
    await this.unpack(archive, targetDir, scope);
  }

  private async inspect(archive: string, scope: string): Promise<void> {
    const guard = new ArchiveEntryGuard(scope);
    const parser: Parser = new Parser({
      strict: true,
      filter: (_path, entry) => {
        const verdict = guard.check(entryOf(entry));
        if (verdict.action === 'refuse') parser.abort(refused(verdict.reason));
        return false;
      },
    });
    await drain(archive, parser, 'end');
  }

  private async unpack(archive: string, targetDir: string, scope: string): Promise<void> {
    const guard = new ArchiveEntryGuard(scope);
    const problems: string[] = [];
    const unpack: Unpack = new Unpack({
      cwd: targetDir,
      // Not strict, so that the promise settles on 'close', once every pending write is done.
      strict: false,
      preserveOwner: false,
      filter: (_path, entry) => {
        const verdict = guard.check(entryOf(entry));
        if (verdict.action === 'refuse') unpack.abort(refused(verdict.reason));
        return verdict.action === 'extract';
      },
      onwarn: (code, message) => {
        if (code !== 'TAR_ENTRY_INFO') problems.push(`${code}: ${message}`);
      },
    });
    await drain(archive, unpack, 'close');
    if (problems.length > 0) {
      throw new TaskAssetsError('BROKEN_ARCHIVE', `archive could not be extracted: ${problems.slice(0, 3).join('; ')}`);
    }
  }
}

function entryOf(entry: unknown): { path: string; type: string; linkpath?: string } {
  if (!(entry instanceof ReadEntry)) throw new Error('tar filter called without an archive entry');
  return { path: entry.path, type: entry.type, linkpath: entry.linkpath };
}

function refused(reason: string): TaskAssetsError {
  return new TaskAssetsError('BROKEN_ARCHIVE', `archive refused: ${reason}`);
}

/** Pipes the archive file into a tar stream and waits for `doneEvent`; any error rejects as BROKEN_ARCHIVE. */
async function drain(archive: string, sink: Parser, doneEvent: 'end' | 'close'): Promise<void> {
  const input = createReadStream(archive);
  try {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: unknown): void => reject(asBroken(error));
      input.on('error', fail);
      sink.on('error', fail);
      sink.on(doneEvent, () => resolve());
      input.pipe(sink);
    });
  } finally {
    input.destroy();
  }
}

function asBroken(error: unknown): TaskAssetsError {
  if (error instanceof TaskAssetsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TaskAssetsError('BROKEN_ARCHIVE', `archive is corrupt or truncated: ${message}`, { cause: error });
}
