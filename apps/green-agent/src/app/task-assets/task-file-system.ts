import { Injectable } from '@nestjs/common';
import { createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';

/** The filesystem as the task assets use it: cache files, workspaces, their removal. */
@Injectable()
export class TaskFileSystem {
  async isFile(path: string): Promise<boolean> {
    try {
      return (await stat(path)).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async makeDir(path: string, mode?: number): Promise<void> {
    await mkdir(path, { recursive: true, mode });
  }

  /** Opens a new file for writing; fails if it exists (temporary names are unique). */
  openForWrite(path: string): WriteStream {
    return createWriteStream(path, { flags: 'wx' });
  }

  async rename(from: string, to: string): Promise<void> {
    await rename(from, to);
  }

  async copyFile(from: string, to: string): Promise<void> {
    await copyFile(from, to);
  }

  async readText(path: string): Promise<string> {
    return readFile(path, 'utf8');
  }

  /** The size of a regular file; undefined when there is none at `path`. */
  async fileSize(path: string): Promise<number | undefined> {
    try {
      const info = await stat(path);
      return info.isFile() ? info.size : undefined;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** Removes a file or a whole tree; a missing one is fine. */
  async remove(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
  }

  /** Removes one file, never a folder; a missing one is fine. */
  async removeFile(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /** Removes a folder that is empty; one that holds anything stays, with all it holds. */
  async removeIfEmpty(path: string): Promise<void> {
    await rmdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST' && !isMissing(error)) throw error;
    });
  }
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
