import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { readRegularFile, SOURCE_TREE, WORKSPACE } from '@arvo-rca/common';
import type { Prediction } from '@arvo-rca/loc-json';
import { filesMatch, normalizeFilePath, type GroundTruth } from '@arvo-rca/rca-eval';
import type { RankedSpan, SourceExcerpt, Span } from '@arvo-rca/run-record';

// Lines shown around a marked span, and the most one excerpt holds (a span of a whole file is cut).
const CONTEXT_LINES = 8;
const MAX_EXCERPT_LINES = 400;
const MAX_FILE_BYTES = 4 * 1024 * 1024;
/** The tree's prefix as a solver names its files inside the sandbox (`/workspace/src-vul/`). */
const IN_SANDBOX_TREE = new RegExp(`^${WORKSPACE}/${SOURCE_TREE}/`);

interface FileMarks {
  path: string;
  fix: Span[];
  predicted: RankedSpan[];
}

/**
 * The source lines around the fix's hunks and the solver's locations (as the judge read them), read from
 * the vulnerable tree while it exists, for the record's viewer. A location naming a file outside the
 * tree, or one that is not there, has no excerpt.
 */
export async function sourceExcerpts(srcVul: string, truth: GroundTruth, predictions: readonly Prediction[]): Promise<SourceExcerpt[]> {
  const files: FileMarks[] = [];
  const marksOf = (path: string): FileMarks => {
    const known = files.find((file) => filesMatch(path, file.path, truth.project));
    if (known) return known;
    const added = { path, fix: [], predicted: [] };
    files.push(added);
    return added;
  };
  for (const span of truth.spans) if (span.vulSpan) marksOf(span.file).fix.push({ start: span.vulSpan.start, end: span.vulSpan.end });
  predictions.forEach((prediction, index) => {
    if (prediction.span) marksOf(prediction.file).predicted.push({ start: prediction.span.start, end: prediction.span.end, rank: index + 1 });
  });
  const excerpts = await Promise.all(files.map(async (file) => excerptsOf(file, await readTreeFile(srcVul, truth.project, file.path))));
  return excerpts.flat();
}

/** The files the locations name, as they name them, each once. */
export function filesNamedIn(predictions: readonly Prediction[]): string[] {
  return [...new Set(predictions.map((prediction) => prediction.file))];
}

/** The file's lines, when it is a file inside the tree (under the project folder, or at the tree's top). */
async function readTreeFile(srcVul: string, project: string | null, path: string): Promise<string[] | undefined> {
  const root = await realpath(srcVul);
  // As the fix names it (from the project's folder), or as the solver did (`/workspace/src-vul/...`, `/src/<project>/...`).
  const relative = path.replace(IN_SANDBOX_TREE, '').replace(/^\/src\//, '');
  const names = [...new Set([relative, normalizeFilePath(path, project)])];
  const candidates = names.flatMap((name) => (project ? [join(srcVul, project, name), join(srcVul, name)] : [join(srcVul, name)]));
  for (const candidate of candidates) {
    const real = await realpath(candidate).catch(() => undefined);
    if (!real?.startsWith(root + sep)) continue;
    // With a local sandbox the solver writes this tree: a FIFO or a huge sparse file it names is skipped unread.
    const text = await readRegularFile(real, { maxBytes: MAX_FILE_BYTES, within: root }).catch(() => undefined);
    if (text) return text.toString('utf8').split('\n');
  }
  return undefined;
}

/** One excerpt per group of nearby marks. */
function excerptsOf(file: FileMarks, lines: string[] | undefined): SourceExcerpt[] {
  if (!lines) return [];
  const marks = [...file.fix, ...file.predicted].filter((span) => span.start >= 1 && span.start <= lines.length).sort((a, b) => a.start - b.start);
  const groups: Span[] = [];
  for (const mark of marks) {
    const last = groups.at(-1);
    if (last && mark.start - last.end <= 2 * CONTEXT_LINES) last.end = Math.max(last.end, mark.end);
    else groups.push({ start: mark.start, end: mark.end });
  }
  return groups.map((group) => {
    const start = Math.max(1, group.start - CONTEXT_LINES);
    const end = Math.min(lines.length, group.end + CONTEXT_LINES, start + MAX_EXCERPT_LINES - 1);
    const within = <T extends Span>(span: T): boolean => span.start <= end && span.end >= start;
    return { path: file.path, start, lines: lines.slice(start - 1, end), fix: file.fix.filter(within), predicted: file.predicted.filter(within) };
  });
}
