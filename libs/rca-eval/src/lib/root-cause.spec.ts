import type { GroundTruth, GroundTruthSpan } from './ground-truth';
import { countsForRootCause, isTestOrHarnessFile, rootCauseTruth } from './root-cause';

const span = (file: string, fn: string): GroundTruthSpan => ({
  file,
  function: fn,
  vulSpan: { start: 1, end: 2 },
  fixSpan: { start: 1, end: 3 },
  change: 'modified',
});

describe('isTestOrHarnessFile', () => {
  it.each([
    'tests/test_read_format.c',
    'libarchive/test/test_read_format_7z.c',
    'src/testing/util.cc',
    'Tests/Main.cpp',
    'fuzz/fuzz_parse.c',
    'contrib/oss-fuzz/archive_fuzzer.cc',
    'fuzzing/png.c',
    'src/parser_test.cc',
    'src/parser-test.c',
    'src/test_parser.c',
    'src/url_unittest.cc',
    'src/decode_fuzzer.cc',
    'decode-fuzzer.c',
    'fuzz_decode.c',
    'fuzz/corpus/crash-1.c',
    'corpus/seed.h',
  ])('counts %s as a test, a fuzz harness or a fuzz input', (path) => expect(isTestOrHarnessFile(path)).toBe(true));

  it.each([
    'src/header.c',
    'lib/contest.c',
    'src/attest.c',
    'src/testbed.c',
    'src/fuzzy_match.c',
    'src/latest_test_data.h',
    'src/testing.c',
    'src/fuzzer_api.h',
  ])('counts %s as code of the project', (path) => expect(isTestOrHarnessFile(path)).toBe(false));
});

describe('countsForRootCause', () => {
  it('keeps the hunks of code the fix changes or deletes, and leaves out those of a file it adds', () => {
    expect(countsForRootCause({ file: 'src/a.c', change: 'modified' })).toBe(true);
    expect(countsForRootCause({ file: 'src/a.c', change: 'deleted' })).toBe(true);
    expect(countsForRootCause({ file: 'src/limits.h', change: 'added' })).toBe(false);
    expect(countsForRootCause({ file: 'tests/test_a.c', change: 'modified' })).toBe(false);
  });
});

describe('rootCauseTruth', () => {
  it('scores against the root-cause spans, and against all spans of ground truth made without them', () => {
    const made: GroundTruth = { spans: [span('src/a.c', 'f'), span('tests/test_a.c', 'test_f')], rootCause: [span('src/a.c', 'f')], project: 'p', notes: [] };
    const byHand: GroundTruth = { spans: [span('src/a.c', 'f')], project: null, notes: [] };

    expect(rootCauseTruth(made)).toEqual({ ...made, spans: [span('src/a.c', 'f')] });
    expect(rootCauseTruth(byHand)).toEqual(byHand);
  });
});
