import { open, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, sep } from 'node:path';
import { recordFolders, type RecordFolder } from '@arvo-rca/run-record';
import { ViewerError } from './viewer-error';

/**
 * Where a record lives, and the name the API gives it. Its folder is resolved (`<run dir>/assessments/<id>`),
 * and so is its run directory, to which the record's paths are relative.
 */
export interface RecordLocation extends RecordFolder {
  key: string;
}

interface Root {
  given: string;
  real: string;
}

/** What the viewer reads of a file: its start, or its end for logs that grow. */
export interface TextRead {
  text: string;
  cut: boolean;
}

/**
 * The run directories the viewer was given, and the only place it reads from: every file is resolved
 * (symlinks followed) and must lie inside one of them. A directory given may be a run directory, or a
 * folder of run directories (a LOG_DIR such as `logs/`).
 */
export class RunDirectories {
  private constructor(private readonly roots: readonly Root[]) {}

  static async open(paths: readonly string[]): Promise<RunDirectories> {
    const roots = await Promise.all(
      paths.map(async (given) => {
        const real = await realpath(given).catch((error: NodeJS.ErrnoException) => {
          throw new ViewerError('NOT_FOUND', `${given} cannot be read: ${error.code === 'ENOENT' ? 'it does not exist' : error.message}`);
        });
        if (!(await stat(real)).isDirectory()) throw new ViewerError('NOT_FOUND', `${given} is not a directory`);
        return { given, real };
      }),
    );
    return new RunDirectories(roots);
  }

  /** Every record in the directories, newest first; a record id found twice gets `~2`, `~3` ... */
  async records(): Promise<RecordLocation[]> {
    const found = (await Promise.all(this.roots.map((root) => this.recordsUnder(root)))).flat();
    found.sort((a, b) => (a.id === b.id ? a.folder.localeCompare(b.folder) : b.id.localeCompare(a.id)));
    const seen = new Map<string, number>();
    return found.map((record) => {
      const count = (seen.get(record.id) ?? 0) + 1;
      seen.set(record.id, count);
      return { ...record, key: count === 1 ? record.id : `${record.id}~${count}` };
    });
  }

  /** A file a record names, resolved; it must be a regular file inside the run directories. */
  async resolveFile(runDir: string, path: string): Promise<string> {
    const candidate = isAbsolute(path) ? path : join(runDir, path);
    const real = await realpath(candidate).catch(() => {
      throw new ViewerError('FILE_NOT_FOUND', `${path} does not exist`);
    });
    if (!this.inside(real)) throw new ViewerError('OUTSIDE_RUN_DIRS', `${path} is outside the run directories this viewer serves`);
    if (!(await stat(real)).isFile()) throw new ViewerError('FILE_NOT_FOUND', `${path} is not a file`);
    return real;
  }

  /** Whether a resolved path lies inside one of the run directories. */
  inside(real: string): boolean {
    return this.roots.some((root) => real === root.real || real.startsWith(root.real + sep));
  }

  /** At most `limit` bytes of a resolved file: its start, or with `fromEnd` its end. */
  async readText(real: string, limit: number, fromEnd = false): Promise<TextRead> {
    const handle = await open(real, 'r');
    try {
      const { size } = await handle.stat();
      const length = Math.min(size, limit);
      const buffer = Buffer.alloc(length);
      await handle.read(buffer, 0, length, fromEnd ? size - length : 0);
      return { text: buffer.toString('utf8'), cut: size > limit };
    } finally {
      await handle.close();
    }
  }

  // The records of a run directory given, or of those in a folder given, less any linked in from elsewhere.
  private async recordsUnder(root: Root): Promise<RecordFolder[]> {
    const found = await recordFolders(root.real, root.given);
    const usable = await Promise.all(
      found.map(async (record) => {
        const folder = await realpath(record.folder).catch(() => undefined);
        return folder !== undefined && this.inside(folder) && (await stat(folder)).isDirectory() ? [{ ...record, folder }] : [];
      }),
    );
    return usable.flat();
  }
}
