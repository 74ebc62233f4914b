// Reading a file someone else controls (a solver's loc.json, a file it names) without trusting what it is.
import { constants, type Stats } from 'node:fs';
import { open, readlink, realpath, type FileHandle } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { CodedError } from '../coded-error';

type FileReadErrorCode = 'FILE_NOT_REGULAR' | 'FILE_TOO_LARGE' | 'FILE_NOT_READABLE';
export class FileReadError extends CodedError<FileReadErrorCode> {}

interface RegularFileLimits {
  /** The most bytes read; a larger file is refused (FILE_TOO_LARGE) without reading past this bound. */
  maxBytes: number;
  /** A folder the opened file must lie in, as the kernel names the file it opened (links resolved). */
  within?: string;
}

// A FIFO opened this way opens at once, and a link in the last component is refused, never followed.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;
const CHUNK_BYTES = 64 * 1024;

/**
 * The bytes of `path` when it is a regular file of at most `maxBytes`: opened without blocking and without
 * following a final link, checked on the open handle (so a file swapped meanwhile is not read instead),
 * and read from it up to the bound. A FIFO, a device, a socket, a folder or a link is refused with a
 * FileReadError, and costs neither a file-I/O thread for longer than one open nor more memory than the bound.
 */
export async function readRegularFile(path: string, limits: RegularFileLimits): Promise<Buffer> {
  const handle = await open(path, OPEN_FLAGS).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ELOOP' ? 'it is a symbolic link' : (error.code ?? error.message);
    throw new FileReadError(error.code === 'ELOOP' ? 'FILE_NOT_REGULAR' : 'FILE_NOT_READABLE', `cannot read ${path}: ${reason}`, { cause: error });
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new FileReadError('FILE_NOT_REGULAR', `cannot read ${path}: it is ${kindOf(info)}, not a regular file`);
    if (limits.within !== undefined) await assertWithin(handle, path, limits.within);
    if (info.size > limits.maxBytes) throw tooLarge(path, limits.maxBytes);
    return await readBounded(handle, path, limits.maxBytes);
  } finally {
    await handle.close();
  }
}

// A file that grew since its stat is still cut at the bound: one byte past it says it is too large.
async function readBounded(handle: FileHandle, path: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(path, maxBytes);
  }
}

// The kernel's name of the open file, not the path's: a folder swapped for a link after a check cannot
// lead the read elsewhere. Hosts without /proc fall back to resolving the path.
async function assertWithin(handle: FileHandle, path: string, folder: string): Promise<void> {
  const opened = await readlink(`/proc/self/fd/${handle.fd}`).catch(() => realpath(path));
  const root = await realpath(folder);
  const inside = relative(root, opened);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || inside.startsWith(sep)) {
    throw new FileReadError('FILE_NOT_READABLE', `cannot read ${path}: it leads out of ${folder}`);
  }
}

function tooLarge(path: string, maxBytes: number): FileReadError {
  return new FileReadError('FILE_TOO_LARGE', `cannot read ${path}: it is larger than ${maxBytes} bytes`);
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO';
  if (info.isDirectory()) return 'a folder';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  if (info.isSymbolicLink()) return 'a symbolic link';
  return 'not a file';
}
