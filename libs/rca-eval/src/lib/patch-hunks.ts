// The hunks of a fix diff (`patch.diff`): git diffs and plain `diff -u` output alike.
import type { LineSpan } from '@arvo-rca/loc-json';

export type FileChange = 'modified' | 'added' | 'deleted';

export interface PatchHunk {
  /** The file's path as the diff names it, `a/`/`b/` prefixes removed (a non-git diff keeps its own prefix). */
  file: string;
  change: FileChange;
  /** `[a, a+b-1]` of the vulnerable file; null when the file is new. */
  vulSpan: LineSpan | null;
  /** `[c, c+d-1]` of the fixed file; null when the file is deleted. */
  fixSpan: LineSpan | null;
  /**
   * Only for a hunk that adds lines to an existing file and removes none: where it inserts them, each place
   * as the vulnerable-file line after which the new lines go (0: before the first line).
   */
  insertedAfter?: number[];
}

/** The extensions of source files whose hunks are ground truth; changelogs, docs and build files are not. */
const CODE_EXTENSIONS = ['.c', '.cc', '.cpp', '.cxx', '.h', '.hpp', '.hh', '.rs', '.go', '.py'];

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
  let body: HunkBody | null = null;
  for (const rawLine of patchText.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (body?.open && body.take(line)) continue;
    // The hunk is complete, or shorter than its header said: the line is read as a header.
    hunks.push(...(body?.finish() ?? []));
    body = null;
    if (line.startsWith('diff ')) {
      header = { gitStyle: line.startsWith('diff --git '), oldPath: undefined, newPath: undefined };
    } else if (line.startsWith('--- ')) {
      header.oldPath = headerPath(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      header.newPath = headerPath(line.slice(4));
    } else {
      const match = HUNK_HEADER.exec(line);
      if (!match) continue;
      const [oldStart, oldCount, newStart, newCount] = [match[1], match[2], match[3], match[4]].map((n) => (n === undefined ? 1 : Number(n)));
      body = new HunkBody(toHunk(header, oldStart, oldCount, newStart, newCount), oldStart, oldCount, newCount);
    }
  }
  hunks.push(...(body?.finish() ?? []));
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
  const gitStyle = header.gitStyle || ((oldPath == null || oldPath.startsWith('a/')) && (newPath == null || newPath.startsWith('b/')));
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
 * The lines of one hunk, counted against its header, so that a removed line reading `-- a/x` is never taken
 * for a file header. Notes where the hunk inserts lines, for a hunk that turns out to only add lines.
 */
class HunkBody {
  private oldLeft: number;
  private newLeft: number;
  /** The last vulnerable-file line read so far (for a side of count 0, the line the change follows). */
  private oldLine: number;
  private removes = false;
  private readonly insertions: number[] = [];
  private adding = false;

  constructor(
    private readonly hunk: PatchHunk | null,
    oldStart: number,
    oldCount: number,
    newCount: number,
  ) {
    this.oldLeft = oldCount;
    this.newLeft = newCount;
    this.oldLine = oldCount > 0 ? oldStart - 1 : oldStart;
  }

  get open(): boolean {
    return this.oldLeft > 0 || this.newLeft > 0;
  }

  /** Reads one line of the hunk; false when the line is none (the hunk was cut short). */
  take(line: string): boolean {
    const kind = line === '' ? ' ' : line[0];
    if (kind === '\\') return true;
    if (kind !== ' ' && kind !== '-' && kind !== '+') return false;
    if (kind === '+' && !this.adding) this.insertions.push(this.oldLine);
    if (kind !== '+') {
      this.oldLeft--;
      this.oldLine++;
    }
    if (kind !== '-') this.newLeft--;
    this.removes ||= kind === '-';
    this.adding = kind === '+';
    return true;
  }

  /** The hunk (none when its header named no file), with where it inserts when it only adds lines to an existing file. */
  finish(): PatchHunk[] {
    if (!this.hunk) return [];
    const onlyAdds = this.hunk.change === 'modified' && !this.removes && this.insertions.length > 0;
    return [onlyAdds ? { ...this.hunk, insertedAfter: this.insertions } : this.hunk];
  }
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
