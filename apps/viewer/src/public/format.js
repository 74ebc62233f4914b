// How numbers and scores read on the page.

/** @typedef {import('../app/viewer-api').ScoreName} ScoreName */

/** @typedef {{ name: ScoreName, label: string, meaning: string }} Score */

/** @type {Score[]} */
const ORIGINAL_SCORES = [
  {
    name: 'line_iou',
    label: 'line IoU',
    meaning: 'per span of the fix, the best overlap (IoU) of its lines with a predicted span in the same file; mean over spans',
  },
  { name: 'func_recall', label: 'func recall', meaning: 'share of the fix’s spans whose function the solver named' },
  { name: 'file_acc', label: 'file acc', meaning: 'share of the fix’s spans with a prediction in the same file' },
  { name: 'line_proximity', label: 'line prox', meaning: 'per span, how close the nearest predicted span’s centre is; mean over spans' },
  { name: 'func_precision', label: 'func prec', meaning: 'share of predictions whose file and function match a span of the fix' },
];

/**
 * The original's scores, then each again against the root-cause spans only.
 * @type {Score[]}
 */
export const SCORES = [
  ...ORIGINAL_SCORES,
  ...ORIGINAL_SCORES.map(({ name, label }) => ({
    name: /** @type {ScoreName} */ (`rc_${name}`),
    label: `root cause: ${label}`,
    meaning: `${label} against the root-cause spans only: hunks of tests, fuzz harnesses and files the fix adds left out`,
  })),
];

/** The means a run is summed up by: four of the original's, and the root cause's line IoU. */
export const RUN_MEANS = SCORES.filter((s) => ['line_iou', 'func_recall', 'file_acc', 'line_proximity', 'rc_line_iou'].includes(s.name));

/** @param {number | null | undefined} value */
export function score(value) {
  return value === null || value === undefined ? '–' : value.toFixed(2);
}

/**
 * A 95% interval: `0.32–0.58`, or with `withSign` the signed ends of a difference; a dash over no task.
 * @param {[number, number] | null | undefined} value
 * @param {boolean} [withSign]
 */
export function interval(value, withSign = false) {
  if (value === null || value === undefined) return '–';
  return withSign ? `[${signed(value[0])}, ${signed(value[1])}]` : `${value[0].toFixed(2)}–${value[1].toFixed(2)}`;
}

/**
 * A difference with its sign, to three decimals (never `-0.000`).
 * @param {number} value
 */
export function signed(value) {
  const text = value.toFixed(3);
  return Number(text) === 0 ? '0.000' : value > 0 ? `+${text}` : text;
}

/**
 * The background of a score: red at 0, through yellow, to green at 1.
 * @param {number} value
 */
export function scoreColour(value) {
  const clamped = Math.max(0, Math.min(1, value));
  return `hsl(${Math.round(clamped * 120)}, 70%, 78%)`;
}

/** @param {number | null | undefined} usd */
export function cost(usd) {
  return usd === null || usd === undefined ? '–' : `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

/** @param {number | null | undefined} seconds */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.round(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** @param {string} iso */
export function date(iso) {
  return iso
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z')
    .replace(/Z$/, ' UTC');
}

/** @param {number | null | undefined} count */
export function tokens(count) {
  if (count === null || count === undefined) return '–';
  return count >= 10_000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}

/**
 * Result keys in a natural order: `sample:2` before `sample:10`.
 * @param {string} a
 * @param {string} b
 */
export function compareResultKeys(a, b) {
  return a.localeCompare(b, 'en', { numeric: true });
}
