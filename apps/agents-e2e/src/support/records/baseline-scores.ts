import type { AssessmentResult } from '@arvo-rca/results';

/**
 * What the no-key baseline scores on each bundled sample, exactly: it names the crash site. sample:1:
 * the crash is in cursor.c, the fix in index.c, so nothing matches. sample:2: right file (the crash
 * function's caller is in body.c) but not the function. 3 to 5: the function of the fix is among the
 * three frames the baseline names.
 */
export const BASELINE_SCORES: Record<string, [status: string, fileAcc: number, funcRecall: number, lineIou: number, lineProximity: number]> = {
  'sample:1': ['scored', 0, 0, 0, 0],
  'sample:2': ['scored', 1, 0, 0, 0.3359],
  'sample:3': ['scored', 1, 1, 0.1351, 0.8187],
  'sample:4': ['scored', 1, 1, 0.3462, 0.8035],
  'sample:5': ['scored', 1, 1, 0.7188, 0.9214],
};

/** Each task's status and main scores in the shape of BASELINE_SCORES, rounded to four places. */
export function scoresOf(result: AssessmentResult): Record<string, (string | number | null)[]> {
  return Object.fromEntries(
    Object.entries(result.task_metrics).map(([task, m]) => [task, [m.status, m.file_acc, m.func_recall, round(m.line_iou), round(m.line_proximity)]]),
  );
}

function round(value: number | null): number | null {
  return value === null ? null : Math.round(value * 10_000) / 10_000;
}
