import { Parser, type ReadEntry } from 'tar';
import { engineReason, SandboxError } from '@arvo-rca/sandbox';
import type { ContainerHandle } from '../engine/container-handle';

// The entry types of a regular file in a tar stream.
const REGULAR = new Set(['File', 'OldFile', 'ContiguousFile']);

/**
 * One file of a container, read through the engine's archive API: the engine tars the path without
 * following a link in its last component and without opening what is not a regular file, so a FIFO, a
 * device or a link the solver left there is refused from its tar header (FILE_NOT_REGULAR), as is a file
 * past `maxBytes` (FILE_TOO_LARGE), and the stream is hung up at once: an endless or sparse 1.5 GiB file
 * costs one header. Nothing runs in the container, so a read needs neither its tools nor a free pid.
 */
export async function readContainerFile(container: ContainerHandle, path: string, maxBytes: number, deadlineMs: number): Promise<Buffer> {
  const archive = await container.readArchive(path).catch((error: unknown) => {
    if (isMissingFile(error)) throw new SandboxError('FILE_NOT_FOUND', `cannot read ${path}: it does not exist`, { cause: error });
    throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path}: ${engineReason(error)}`, { cause: error });
  });
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: SandboxError | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // Hung up either way: the engine tars no more of what it was reading.
      archive.unpipe(parser);
      archive.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const timer = setTimeout(
      () => settle(new SandboxError('FILE_NOT_READABLE', `cannot read ${path}: the engine did not send it within ${deadlineMs / 1000} s`)),
      deadlineMs,
    );
    const parser = new Parser({
      onReadEntry: (entry: ReadEntry) => {
        if (!REGULAR.has(entry.type))
          return settle(new SandboxError('FILE_NOT_REGULAR', `cannot read ${path}: it is ${describeEntry(entry)}, not a regular file`));
        if (entry.size > maxBytes) return settle(new SandboxError('FILE_TOO_LARGE', `cannot read ${path}: it is larger than ${maxBytes} bytes`));
        entry.on('data', (chunk: Buffer) => {
          size += chunk.length;
          chunks.push(chunk);
        });
        // The first entry is the file; the rest of the stream is the tar's end.
        entry.on('end', () => settle(undefined));
      },
    });
    parser.on('error', (error: Error) => settle(new SandboxError('FILE_NOT_READABLE', `cannot read ${path}: ${error.message}`, { cause: error })));
    archive.on('error', (error: Error) => settle(new SandboxError('FILE_NOT_READABLE', `cannot read ${path}: ${engineReason(error)}`, { cause: error })));
    // Ended without a file entry: the engine leaves sockets out of its archives.
    parser.on('end', () => settle(new SandboxError('FILE_NOT_READABLE', `cannot read ${path}: the engine sent no file (a socket, or nothing)`)));
    archive.pipe(parser);
  });
}

// The engine's 404 names the file, or the container when that is gone: only the first says the file is not there.
function isMissingFile(error: unknown): boolean {
  return (error as { statusCode?: number }).statusCode === 404 && !/^no such container/i.test(engineReason(error));
}

function describeEntry(entry: ReadEntry): string {
  switch (entry.type) {
    case 'FIFO':
      return 'a FIFO';
    case 'SymbolicLink':
      return `a symbolic link (to ${entry.linkpath ?? 'nowhere'})`;
    case 'Link':
      return 'a hard link';
    case 'Directory':
      return 'a folder';
    case 'CharacterDevice':
    case 'BlockDevice':
      return 'a device';
    default:
      return `a ${entry.type} entry`;
  }
}
