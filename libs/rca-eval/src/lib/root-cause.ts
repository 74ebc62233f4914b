// Which hunks of a fix are its root cause. A real fix commit often also adds a regression test, a test
// archive or a fuzz-harness tweak; the root-cause (`rc_*`) metrics score against the fix's code alone.
import type { GroundTruth, GroundTruthSpan } from './ground-truth';

/** Folders whose files are tests, fuzz harnesses or fuzz inputs, wherever they sit in the path. */
const TEST_AND_HARNESS_FOLDERS = new Set(['test', 'tests', 'testing', 'fuzz', 'fuzzing', 'fuzzer', 'fuzzers', 'oss-fuzz', 'corpus', 'corpora']);

/** File names (extension dropped) of tests and harnesses: `test_x`, `x_test`, `x_unittest`, `x_fuzzer`, `fuzz_x`, `x_fuzz`, with `_` or `-`. */
const TEST_AND_HARNESS_NAMES = /^(test|fuzz)[_-].|.[_-](test|tests|unittest|fuzz|fuzzer)$/;

/** True for a path of a test, a fuzz harness or a fuzz input, by its folders or its name (case ignored). */
export function isTestOrHarnessFile(path: string): boolean {
  const parts = path.toLowerCase().split(/[\\/]+/);
  const base = parts.pop() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return parts.some((folder) => TEST_AND_HARNESS_FOLDERS.has(folder)) || TEST_AND_HARNESS_NAMES.test(stem);
}

/** A span counts for the root cause unless its file is a test or harness, or a file the fix only adds. */
export function countsForRootCause(span: Pick<GroundTruthSpan, 'file' | 'change'>): boolean {
  return span.change !== 'added' && !isTestOrHarnessFile(span.file);
}

/**
 * The ground truth the root-cause metrics score against: `rootCause` as its spans. Ground truth made
 * without root-cause spans (by hand) is scored on its own spans.
 */
export function rootCauseTruth(truth: GroundTruth): GroundTruth {
  return { ...truth, spans: truth.rootCause ?? truth.spans };
}
