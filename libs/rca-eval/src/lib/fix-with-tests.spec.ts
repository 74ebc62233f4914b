import { fixtureTask, type FixtureTask } from './fixture-task.testing';
import { GroundTruthExtractor, type GroundTruth } from './ground-truth';
import { scoreSubmission } from './task-scoring';

// fixtures/minitar: parse_header copies a header's name into a 65-byte field without checking its length.
// The fix, as git writes it, adds the check to parse_header (src/header.c), and also: a test function and
// its call in main (tests/test_header.c), a new test program (tests/test_limits.c), a check in the fuzz
// harness (fuzz/header_fuzzer.c), a test archive and a corpus file (both binary) and a NEWS entry.
const at = (vulStart: number, vulEnd: number, fixStart: number, fixEnd: number) => ({
  vulSpan: { start: vulStart, end: vulEnd },
  fixSpan: { start: fixStart, end: fixEnd },
});
const FIXED_FUNCTION = { file: 'src/header.c', function: 'parse_header', change: 'modified', ...at(20, 25, 20, 27) };

describe('a fix that adds a test function, a test file and fuzz inputs beside the fix (a real git diff)', () => {
  let task: FixtureTask;
  let truth: GroundTruth;

  beforeAll(async () => {
    task = await fixtureTask('minitar');
    truth = await (await GroundTruthExtractor.create()).fromPatch(task.patch, task.srcVul);
  });
  afterAll(() => task.remove());

  it('reads the diff whole, its "Binary files ... differ" lines included', () => {
    expect(task.patch).toContain('Binary files /dev/null and b/tests/data/long-name.tar differ');
    expect(truth.notes).toEqual([]);
    expect(truth.project).toBe('minitar');
  });

  it('keeps every code hunk for the original-parity metrics, each named by the middle line of its vulnerable span', () => {
    expect(truth.spans).toEqual([
      { file: 'fuzz/header_fuzzer.c', function: 'LLVMFuzzerTestOneInput', change: 'modified', ...at(7, 12, 7, 13) },
      FIXED_FUNCTION,
      // Lines 12-19 hold the end of test_short_name and main; the middle line, 15, opens main.
      { file: 'tests/test_header.c', function: 'main', change: 'modified', ...at(12, 19, 12, 29) },
      { file: 'tests/test_limits.c', function: '', change: 'added', vulSpan: null, fixSpan: { start: 1, end: 12 } },
    ]);
  });

  it('keeps only the fixed function for the root cause: no test, harness or added file', () => {
    expect(truth.rootCause).toEqual([FIXED_FUNCTION]);
  });

  it('gives full root-cause marks to a solver naming only the fixed function, and the original its quarter', () => {
    const submission = JSON.stringify({
      reasoning: 'the name is copied with its own length, unchecked against the 65-byte field',
      locations: [{ file: 'src/header.c', function: 'parse_header', line_start: 20, line_end: 25 }],
    });
    const quarter = { '1': 0.25, '3': 0.25, '5': 0.25 };
    const full = { '1': 1, '3': 1, '5': 1 };

    expect(scoreSubmission(submission, truth)).toEqual({
      status: 'scored',
      n_gt: 4,
      n_pred: 1,
      // One span of four met exactly; the one prediction names a fixed function.
      file_acc: 0.25,
      func_recall: 0.25,
      func_precision: 1,
      line_iou: 0.25,
      line_proximity: 0.25,
      func_topk_recall: quarter,
      line_topk_recall: quarter,
      rc_n_gt: 1,
      rc_file_acc: 1,
      rc_func_recall: 1,
      rc_func_precision: 1,
      rc_line_iou: 1,
      rc_line_proximity: 1,
      rc_func_topk_recall: full,
      rc_line_topk_recall: full,
    });
  });
});
