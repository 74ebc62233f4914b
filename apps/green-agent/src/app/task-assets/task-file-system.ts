import { Injectable } from '@nestjs/common';
import { createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';

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

  /** Removes a file or a whole tree; a missing one is fine. */
  async remove(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true, maxRetries: 3 });
  }
}

export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
