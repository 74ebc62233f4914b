// The vulnerable source tree of a task (`src-vul/`), as the judge reads it: the I/O side of ground truth.
import { readdir, realpath, stat } from 'node:fs/promises';
import { readRegularFile } from '@arvo-rca/common';
import { relative, resolve, sep } from 'node:path';

// Far above any real source file (sqlite3.c, among the largest, is 9 MB): a bound, not a filter.
const MAX_SOURCE_BYTES = 64 * 1024 * 1024;

export interface LocatedFile {
  /** Where the file is on disk. */
  absolute: string;
  /** Its path inside the project, as the fix should have named it. */
  path: string;
  /** The folder under the tree's root that holds the project (`src-vul/<project>/...`), if any. */
  project: string | null;
}

/**
 * Finds the files a fix diff names. ARVO trees hold the project one folder down (`src-vul/<project>/`),
 * while diffs name files from the project root; plain `diff -u` patches may carry an extra leading
 * folder of their own, which is dropped as `patch -p1` would.
 */
export class SourceTree {
  private folders: Promise<string[]> | undefined;
  private realRoot: Promise<string | null> | undefined;

  constructor(readonly root: string) {}

  async locate(patchPath: string): Promise<LocatedFile | null> {
    const parts = patchPath.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.length === 0 || parts.includes('..')) return null;
    const bases: Array<string | null> = [null, ...(await this.projectFolders())];
    for (let strip = 0; strip < parts.length; strip++) {
      const path = parts.slice(strip).join('/');
      for (const project of bases) {
        const absolute = resolve(this.root, project ?? '.', path);
        const real = this.inside(absolute) ? await this.realFileInside(absolute) : null;
        if (real) return { absolute: real, path, project };
      }
    }
    return null;
  }

  /** The file's text; a FileReadError when it is no longer a regular file inside the tree, or is past MAX_SOURCE_BYTES. */
  async read(file: LocatedFile): Promise<string> {
    this.realRoot ??= realpath(this.root).catch(() => null);
    const root = (await this.realRoot) ?? this.root;
    return (await readRegularFile(file.absolute, { maxBytes: MAX_SOURCE_BYTES, within: root })).toString('utf8');
  }

  /** The folders directly under the root, in name order: the candidates for the project folder. */
  projectFolders(): Promise<string[]> {
    this.folders ??= readdir(this.root, { withFileTypes: true })
      .then((entries) =>
        entries
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name)
          .sort(),
      )
      .catch(() => []);
    return this.folders;
  }

  /**
   * Where a file really is, links followed, when that is a file inside the tree: a link the archive holds
   * (`config.guess -> /usr/share/misc/config.guess`, or one climbing out) is never read through.
   */
  private async realFileInside(absolute: string): Promise<string | null> {
    this.realRoot ??= realpath(this.root).catch(() => null);
    const [root, real] = await Promise.all([this.realRoot, realpath(absolute).catch(() => null)]);
    return root && real && this.inside(real, root) && (await isFile(real)) ? real : null;
  }

  private inside(absolute: string, root = resolve(this.root)): boolean {
    const path = relative(root, absolute);
    return path !== '' && !path.startsWith(`..${sep}`) && path !== '..';
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
