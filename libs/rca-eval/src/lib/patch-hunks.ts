// The hunks of a fix diff (`patch.diff`): git diffs and plain `diff -u` output alike.
import type { LineSpan } from './loc-json';

export type FileChange = 'modified' | 'added' | 'deleted';

export interface PatchHunk {
  /** The file's path as the diff names it, `a/`/`b/` prefixes removed (a non-git diff keeps its own prefix). */
  file: string;
  change: FileChange;
  /** `[a, a+b-1]` of the vulnerable file; null when the file is new. */
  vulSpan: LineSpan | null;
  /** `[c, c+d-1]` of the fixed file; null when the file is deleted. */
  fixSpan: LineSpan | null;
}

/** The extensions of source files whose hunks are ground truth; changelogs, docs and build files are not. */
export const CODE_EXTENSIONS = ['.c', '.cc', '.cpp', '.cxx', '.h', '.hpp', '.hh', '.rs', '.go', '.py'];

const HUNK_HEADER = /^@@\s*-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s*@@/;
const TRAILING_TIMESTAMP = /\s+\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[+-]\d{4})?\s*$/;

interface FileHeader {
  gitStyle: boolean;
  oldPath: string | null | undefined;
  newPath: string | null | undefined;
}

/**
 * Every hunk of every file in the diff, in order. Lines inside a hunk are counted against the header's
 * counts, so a removed line that reads `-- a/x` is never taken for a file header.
 */
export function parsePatchHunks(patchText: string): PatchHunk[] {
  const hunks: PatchHunk[] = [];
  let header: FileHeader = { gitStyle: false, oldPath: undefined, newPath: undefined };
  let oldLeft = 0;
  let newLeft = 0;
  for (const rawLine of patchText.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (oldLeft > 0 || newLeft > 0) {
      const kind = line === '' ? ' ' : line[0];
      if (kind === '\\') continue;
      if (kind === ' ' || kind === '-' || kind === '+') {
        if (kind !== '+') oldLeft--;
        if (kind !== '-') newLeft--;
        continue;
      }
      oldLeft = newLeft = 0; // a short hunk: read the line as a header
    }
    if (line.startsWith('diff ')) {
      header = { gitStyle: line.startsWith('diff --git '), oldPath: undefined, newPath: undefined };
    } else if (line.startsWith('--- ')) {
      header.oldPath = headerPath(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      header.newPath = headerPath(line.slice(4));
    } else {
      const match = HUNK_HEADER.exec(line);
      if (!match) continue;
      const [oldStart, oldCount, newStart, newCount] = [match[1], match[2], match[3], match[4]].map((n) =>
        n === undefined ? 1 : Number(n),
      );
      const hunk = toHunk(header, oldStart, oldCount, newStart, newCount);
      if (hunk) hunks.push(hunk);
      oldLeft = oldCount;
      newLeft = newCount;
    }
  }
  return hunks;
}

/** True for the files whose hunks count as ground truth. */
export function isCodeFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  return CODE_EXTENSIONS.some((extension) => base.endsWith(extension) && base.length > extension.length);
}

function toHunk(header: FileHeader, oldStart: number, oldCount: number, newStart: number, newCount: number) {
  const { oldPath, newPath } = header;
  if (oldPath === undefined && newPath === undefined) return null;
  const change: FileChange = oldPath === null ? 'added' : newPath === null ? 'deleted' : 'modified';
  const gitStyle =
    header.gitStyle || ((oldPath == null || oldPath.startsWith('a/')) && (newPath == null || newPath.startsWith('b/')));
  const file = newPath ? stripPrefix(newPath, 'b/', gitStyle) : oldPath ? stripPrefix(oldPath, 'a/', gitStyle) : '';
  if (!file) return null;
  return {
    file,
    change,
    vulSpan: change === 'added' ? null : sideSpan(oldStart, oldCount),
    fixSpan: change === 'deleted' ? null : sideSpan(newStart, newCount),
  } satisfies PatchHunk;
}

/**
 * `[start, start+count-1]`. A side with count 0 (a pure insertion or deletion in a diff without context)
 * has no lines of its own: it is taken as the two lines around the change, `start` being the line after
 * which the change sits, so the span still points at the code (and the function) the fix touches.
 */
function sideSpan(start: number, count: number): LineSpan {
  if (count > 0) return { start, end: start + count - 1 };
  return start === 0 ? { start: 1, end: 1 } : { start, end: start + 1 };
}

/** The path of a `---`/`+++` line: timestamps dropped, quotes undone, null for `/dev/null`. */
function headerPath(rest: string): string | null {
  const tab = rest.indexOf('\t');
  let path = (tab >= 0 ? rest.slice(0, tab) : rest.replace(TRAILING_TIMESTAMP, '')).trim();
  if (path.startsWith('"') && path.endsWith('"') && path.length > 1) path = unquote(path.slice(1, -1));
  return path === '/dev/null' ? null : path;
}

/** Git's C-style quoting of unusual file names. */
function unquote(quoted: string): string {
  const escapes: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\' };
  return quoted.replace(/\\(.)/g, (_, char: string) => escapes[char] ?? char);
}

function stripPrefix(path: string, prefix: string, gitStyle: boolean): string {
  return gitStyle && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
