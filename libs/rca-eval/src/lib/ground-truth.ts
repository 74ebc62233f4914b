// Ground truth of a task: the code hunks of its fix, each with the function it sits in.
import { dialectOf, FunctionLocator, type TreeSitterWasmPaths } from './function-locator';
import type { LineSpan } from './loc-json';
import { isCodeFile, parsePatchHunks, type FileChange, type PatchHunk } from './patch-hunks';
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
  spans: GroundTruthSpan[];
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
    const notes: string[] = [];
    const projects: Array<string | null> = [];
    for (const [file, hunks] of byFile) {
      const located = hunks[0].change === 'added' ? null : await tree.locate(file);
      if (located) projects.push(located.project);
      if (!located && hunks[0].change !== 'added') notes.push(`${file}: not found in the vulnerable tree`);
      const functions = located ? await this.functionsOf(tree, located, hunks, notes) : hunks.map(() => '');
      hunks.forEach((hunk, index) => spans.push(toSpan(hunk, located?.path ?? file, functions[index])));
    }
    const project = projects.length > 0 ? projects[0] : await soleFolder(tree);
    return { spans, project, notes };
  }

  private async functionsOf(tree: SourceTree, file: LocatedFile, hunks: PatchHunk[], notes: string[]) {
    // Other code files (Rust, Go, Python) get no function name.
    const dialect = dialectOf(file.path);
    if (!dialect) return hunks.map(() => '');
    let source: string;
    try {
      source = await tree.read(file);
    } catch (error) {
      notes.push(`${file.path}: unreadable (${(error as Error).message})`);
      return hunks.map(() => '');
    }
    const middles = hunks.map((hunk) => (hunk.vulSpan ? Math.floor((hunk.vulSpan.start + hunk.vulSpan.end) / 2) : 0));
    return this.locator.enclosingFunctions(source, middles, dialect);
  }
}

/** One-shot form for callers without an extractor; loads the grammars each time. */
export async function groundTruthFromPatch(patchText: string, srcVulDir: string): Promise<GroundTruth> {
  return (await GroundTruthExtractor.create()).fromPatch(patchText, srcVulDir);
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
