// The vulnerable source tree of a task (`src-vul/`), as the judge reads it: the I/O side of ground truth.
import { readdir, readFile, stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';

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

  constructor(readonly root: string) {}

  async locate(patchPath: string): Promise<LocatedFile | null> {
    const parts = patchPath.split('/').filter((part) => part !== '' && part !== '.');
    if (parts.length === 0 || parts.includes('..')) return null;
    const bases: Array<string | null> = [null, ...(await this.projectFolders())];
    for (let strip = 0; strip < parts.length; strip++) {
      const path = parts.slice(strip).join('/');
      for (const project of bases) {
        const absolute = resolve(this.root, project ?? '.', path);
        if (this.inside(absolute) && (await isFile(absolute))) return { absolute, path, project };
      }
    }
    return null;
  }

  async read(file: LocatedFile): Promise<string> {
    return readFile(file.absolute, 'utf8');
  }

  /** The folders directly under the root, in name order: the candidates for the project folder. */
  projectFolders(): Promise<string[]> {
    this.folders ??= readdir(this.root, { withFileTypes: true })
      .then((entries) => entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort())
      .catch(() => []);
    return this.folders;
  }

  private inside(absolute: string): boolean {
    const path = relative(resolve(this.root), absolute);
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
