// When a predicted file is the ground-truth file: the original judge's lenient rule, kept for comparable scores.
import { SOURCE_TREE, WORKSPACE } from '@arvo-rca/common';

const WORKSPACE_PREFIXES = ['./', '/', `${SOURCE_TREE}/`, 'src/', `${WORKSPACE.slice(1)}/`];

/**
 * The path with `\` as `/` and the workspace prefixes (`./`, `/`, `src-vul/`, `src/`, `workspace/`, and the
 * project folder) stripped repeatedly, so `/workspace/src-vul/tlvkit/src/index.c` becomes `index.c`.
 */
export function normalizeFilePath(path: string, project: string | null = null): string {
  const prefixes = project ? [...WORKSPACE_PREFIXES, `${project}/`] : WORKSPACE_PREFIXES;
  let normalized = path.replace(/\\/g, '/').replace(/\/+$/, '');
  for (let stripped = true; stripped;) {
    const prefix = prefixes.find((candidate) => normalized.startsWith(candidate));
    stripped = prefix !== undefined;
    if (prefix) normalized = normalized.slice(prefix.length);
  }
  return normalized;
}

/**
 * Equal after normalisation, or equal in their last 3, 2 or 1 path components. The last rule makes equal
 * base names enough (`render.c` matches `magick/render.c`, and also `coders/render.c`): that is the
 * original judge's quirk, kept so scores stay comparable with its leaderboard.
 */
export function filesMatch(predicted: string, truth: string, project: string | null = null): boolean {
  const a = normalizeFilePath(predicted, project);
  const b = normalizeFilePath(truth, project);
  if (a === b) return true;
  const partsA = a.split('/').filter(Boolean);
  const partsB = b.split('/').filter(Boolean);
  for (let n = Math.min(3, partsA.length, partsB.length); n > 0; n--) {
    if (partsA.slice(-n).join('/') === partsB.slice(-n).join('/')) return true;
  }
  return false;
}
