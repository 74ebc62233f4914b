// Ground truth of a task: the code hunks of its fix, each with the function it sits in; and the part of
// them that is the root cause.
import type { LineSpan } from '@arvo-rca/loc-json';
import { dialectOf, FunctionLocator, type TreeSitterWasmPaths } from './function-locator';
import { isCodeFile, parsePatchHunks, type FileChange, type PatchHunk } from './patch-hunks';
import { countsForRootCause } from './root-cause';
import { SourceTree, type LocatedFile } from './source-tree';

export interface GroundTruthSpan {
  /** The file's path from the project root, as the fix names it. */
  file: string;
  /** The C/C++ function enclosing the middle line of `vulSpan` in the vulnerable tree; '' when none is known. */
  function: string;
  /** The hunk's lines in the vulnerable file; null for a file the fix adds. */
  vulSpan: LineSpan | null;
  /** The hunk's lines in the fixed file; null for a file the fix deletes. */
  fixSpan: LineSpan | null;
  change: FileChange;
}

/** Plain data: computed while the workspace exists, kept after it is deleted. */
export interface GroundTruth {
  /** Every code hunk, its function found as the original judge did: what the original-parity metrics score against. */
  spans: GroundTruthSpan[];
  /**
   * What the root-cause (`rc_*`) metrics score against: the code hunks but those of tests, fuzz harnesses and
   * inputs and files the fix adds; a hunk that only adds lines has the function that holds where they go.
   * Empty when the fix changes only such files. Absent in ground truth made by hand: `spans` stand in.
   */
  rootCause?: GroundTruthSpan[];
  /** The folder under `src-vul/` holding the project; predictions may name it, so matching strips it. */
  project: string | null;
  /** What could not be resolved (a patched file missing from the tree ...), for the task log. */
  notes: string[];
}

/** Builds ground truth from a fix diff and the vulnerable tree; one per process is enough. */
export class GroundTruthExtractor {
  constructor(private readonly locator: FunctionLocator) {}

  static async create(paths?: TreeSitterWasmPaths): Promise<GroundTruthExtractor> {
    return new GroundTruthExtractor(await FunctionLocator.create(paths));
  }

  /** `srcVulDir` is the task's `src-vul/` (the project one folder down) or the project folder itself. */
  async fromPatch(patchText: string, srcVulDir: string): Promise<GroundTruth> {
    const tree = new SourceTree(srcVulDir);
    const byFile = groupByFile(parsePatchHunks(patchText).filter((hunk) => isCodeFile(hunk.file)));
    const spans: GroundTruthSpan[] = [];
    const rootCause: GroundTruthSpan[] = [];
    const notes: string[] = [];
    const projects: Array<string | null> = [];
    for (const [file, hunks] of byFile) {
      const located = hunks[0].change === 'added' ? null : await tree.locate(file);
      if (located) projects.push(located.project);
      if (!located && hunks[0].change !== 'added') notes.push(`${file}: not found in the vulnerable tree`);
      const functions = located ? await this.functionsOf(tree, located, hunks, notes) : noFunctions(hunks);
      hunks.forEach((hunk, index) => {
        const path = located?.path ?? file;
        spans.push(toSpan(hunk, path, functions.parity[index]));
        if (countsForRootCause({ file: path, change: hunk.change })) rootCause.push(toSpan(hunk, path, functions.rootCause[index]));
      });
    }
    const project = projects.length > 0 ? projects[0] : await soleFolder(tree);
    return { spans, rootCause, project, notes };
  }

  /**
   * Each hunk's function twice: the original's, around the middle line of its vulnerable span; and the
   * root cause's, the same but for a hunk that only adds lines, whose function is the one holding the first
   * place it inserts at that a function holds (its context lines may reach into a neighbour).
   */
  private async functionsOf(tree: SourceTree, file: LocatedFile, hunks: PatchHunk[], notes: string[]): Promise<HunkFunctions> {
    // Other code files (Rust, Go, Python) get no function name.
    const dialect = dialectOf(file.path);
    if (!dialect) return noFunctions(hunks);
    let source: string;
    try {
      source = await tree.read(file);
    } catch (error) {
      notes.push(`${file.path}: unreadable (${(error as Error).message})`);
      return noFunctions(hunks);
    }
    // One parse per file: each hunk asks for its middle line, then for each place it inserts at.
    const places = hunks.map((hunk) => [middleLine(hunk), ...(hunk.insertedAfter ?? []).map((after) => ({ start: after, end: after + 1 }))]);
    const names = runsOf(
      this.locator.functionsAround(source, places.flat(), dialect),
      places.map((asked) => asked.length),
    );
    const parity = names.map(([middle]) => middle);
    const rootCause = names.map(([middle, ...inserts]) => (inserts.length > 0 ? (inserts.find((name) => name !== '') ?? '') : middle));
    return { parity, rootCause };
  }
}

/** The function of each hunk, as the original found it and as the root cause has it. */
interface HunkFunctions {
  parity: string[];
  rootCause: string[];
}

/** The middle line of the hunk's vulnerable span, as the original took it (0, in no function, for a new file). */
function middleLine(hunk: PatchHunk): LineSpan {
  const middle = hunk.vulSpan ? Math.floor((hunk.vulSpan.start + hunk.vulSpan.end) / 2) : 0;
  return { start: middle, end: middle };
}

/** `values` cut into consecutive runs of the given lengths. */
function runsOf<T>(values: T[], lengths: number[]): T[][] {
  let start = 0;
  return lengths.map((length) => values.slice(start, (start += length)));
}

function noFunctions(hunks: PatchHunk[]): HunkFunctions {
  return { parity: hunks.map(() => ''), rootCause: hunks.map(() => '') };
}

function groupByFile(hunks: PatchHunk[]): Map<string, PatchHunk[]> {
  const byFile = new Map<string, PatchHunk[]>();
  for (const hunk of hunks) byFile.set(hunk.file, [...(byFile.get(hunk.file) ?? []), hunk]);
  return byFile;
}

function toSpan(hunk: PatchHunk, file: string, fn: string): GroundTruthSpan {
  return { file, function: fn, vulSpan: hunk.vulSpan, fixSpan: hunk.fixSpan, change: hunk.change };
}

/** When no patched file was found, a tree with a single folder still names its project. */
async function soleFolder(tree: SourceTree): Promise<string | null> {
  const folders = await tree.projectFolders();
  return folders.length === 1 ? folders[0] : null;
}
