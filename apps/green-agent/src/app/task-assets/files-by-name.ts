import { basename } from 'node:path';
import { parsePatchHunks } from '@arvo-rca/rca-eval';

/**
 * The files of a tree that bear the name of one of `paths`, in any folder: the judge finds a file of the
 * fix by its path with the fix's first folders dropped, and through links, so the name is what can be
 * matched before the tree exists. A name that is not a file's (`a/`) matches nothing.
 */
export function filesNamedAs(paths: readonly string[]): (path: string) => boolean {
  const names = new Set(paths.map((path) => basename(path)).filter((name) => name !== '' && name !== '.' && name !== '..'));
  return (path) => names.has(basename(path));
}

/** The files a fix touches, as its diff names them. */
export function filesOfFix(fix: string): string[] {
  return [...new Set(parsePatchHunks(fix).map((hunk) => hunk.file))];
}
