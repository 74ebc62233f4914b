import { createReadStream } from 'node:fs';
import type { Parser } from 'tar';
import { compressionRatioRefusal } from './archive-limits';
import { TaskAssetsError } from './task-assets.errors';

// Small reads bound what one step unpacks at once (node-tar stops past ARCHIVE_MAX_COMPRESSION_RATIO).
const READ_CHUNK_BYTES = 16 * 1024;

/**
 * Feeds an archive file to a tar parser one chunk at a time, awaiting `ready()` after each (the consumer's
 * backpressure), so that neither memory nor a stuck consumer grows with the archive. A pass stops itself
 * with `parser.abort(error)`. Rejects with the first error the parser emits (BROKEN_ARCHIVE unless it is
 * a TaskAssetsError already), or with EXTRACTION_ABORTED once `signal` aborts.
 */
export async function readArchive(archive: string, parser: Parser, signal: AbortSignal, ready?: () => Promise<void>): Promise<void> {
  let failure: unknown;
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('end', () => resolve());
    parser.on('error', (error: unknown) => {
      failure ??= error;
      reject(error);
    });
  });
  // Settled here too, so that an early exit leaves no unhandled rejection behind.
  ended.catch(() => undefined);
  const input = createReadStream(archive, { highWaterMark: READ_CHUNK_BYTES });
  try {
    for await (const chunk of input) {
      throwIfStopped(signal, failure);
      parser.write(chunk);
      throwIfStopped(signal, failure);
      await ready?.();
    }
    throwIfStopped(signal, failure);
    parser.end();
    await ended;
  } catch (error) {
    throw signal.aborted ? aborted() : asBroken(error);
  } finally {
    input.destroy();
  }
}

function throwIfStopped(signal: AbortSignal, failure: unknown): void {
  if (signal.aborted) throw aborted();
  if (failure !== undefined) throw failure;
}

export function aborted(): TaskAssetsError {
  return new TaskAssetsError('EXTRACTION_ABORTED', 'extraction stopped: the green agent is shutting down');
}

function asBroken(error: unknown): TaskAssetsError {
  if (error instanceof TaskAssetsError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const refused = compressionRatioRefusal(message, error);
  if (refused) return refused;
  return new TaskAssetsError('BROKEN_ARCHIVE', `archive is corrupt or truncated: ${message}`, { cause: error });
}
