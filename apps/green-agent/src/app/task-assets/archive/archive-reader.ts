import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import type { Parser } from 'tar';
import { compressionRatioRefusal } from './archive-limits';
import { TaskAssetsError } from '../task-assets.errors';

// Small reads bound what one step unpacks at once (the ratio guard looks at every step).
const READ_CHUNK_BYTES = 16 * 1024;
// What gunzip hands on at once: larger than the reads, since each step is a trip to the thread pool and back.
const GUNZIP_CHUNK_BYTES = 128 * 1024;
const TAR_BLOCK = 512;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

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
  let input: TarStream | undefined;
  try {
    input = await tarStream(archive, parser.maxDecompressionRatio);
    for await (const chunk of input.chunks) {
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
    input?.close();
  }
}

interface TarStream {
  chunks: AsyncIterable<Buffer>;
  close(): void;
}

/**
 * The archive's tar stream. A gzip archive is unpacked by Node's zlib on the thread pool, beside the
 * parser on the main thread: node-tar would unpack it itself, synchronously, on the main thread, which
 * doubled the time a real tree took to lay out. The ratio guard node-tar applies to what it unpacks is
 * applied here in its words, at every chunk. Other archives (plain tar, zstd) go to the parser as they are.
 */
async function tarStream(archive: string, ratioLimit: number): Promise<TarStream> {
  const input = createReadStream(archive, { highWaterMark: READ_CHUNK_BYTES });
  if (!(await startsWith(archive, GZIP_MAGIC))) return { chunks: input, close: () => input.destroy() };
  const gunzip = createGunzip({ chunkSize: GUNZIP_CHUNK_BYTES });
  let compressed = 0;
  input.on('data', (chunk: string | Buffer) => (compressed += chunk.length));
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  async function* unpacked(): AsyncGenerator<Buffer> {
    let bytes = 0;
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      const ratio = bytes / compressed;
      if (ratio > ratioLimit) throw new Error(`max decompression ratio exceeded: ${ratio.toFixed(2)} > ${ratioLimit}`);
      yield chunk;
    }
  }
  return {
    chunks: inWholeBlocks(unpacked()),
    close: () => {
      input.destroy();
      gunzip.destroy();
    },
  };
}

/**
 * The same bytes, cut at multiples of 512. The parser keeps what follows the last whole block of a chunk
 * and copies the next chunk whole onto it: with gunzip's chunks cut anywhere, that was a second copy of the
 * whole tree, and garbage collections of the agent's heap for each 64 MB of it. Here only the few bytes
 * that straddle two chunks are copied.
 */
export async function* inWholeBlocks(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let carry: Buffer | undefined;
  for await (let chunk of chunks) {
    if (carry) {
      const wanted = TAR_BLOCK - carry.length;
      if (chunk.length < wanted) {
        carry = Buffer.concat([carry, chunk]);
        continue;
      }
      yield Buffer.concat([carry, chunk.subarray(0, wanted)]);
      chunk = chunk.subarray(wanted);
      carry = undefined;
    }
    const whole = chunk.length - (chunk.length % TAR_BLOCK);
    if (whole > 0) yield chunk.subarray(0, whole);
    if (whole < chunk.length) carry = Buffer.from(chunk.subarray(whole));
  }
  if (carry) yield carry;
}

async function startsWith(file: string, magic: Buffer): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(magic.length);
    const { bytesRead } = await handle.read(head, 0, magic.length, 0);
    return bytesRead === magic.length && head.equals(magic);
  } finally {
    await handle.close();
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
