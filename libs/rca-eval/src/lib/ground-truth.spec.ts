import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GroundTruthExtractor } from './ground-truth';

const PARSER_C = `#include "parser.h"

static int read_header(const char *p, int n)
{
  if (n < 4)
    return -1;
  return p[0];
}

int parse(const char *p, int n)
{
  int h = read_header(p, n);
  if (h < 0)
    return h;
  return h + 1;
}
`;

const PARSER_H = `#ifndef PARSER_H
#define PARSER_H
int parse(const char *p, int n);
#endif
`;

const READER_CPP = `#include "reader.h"
namespace codec {
template <typename T>
size_t Reader<T>::take(size_t n)
{
  size_t got = n;
  if (got > left_)
    got = left_;
  return got;
}
}  // namespace codec
`;

const TEST_PARSER_C = `#include "parser.h"

int main(void)
{
  return parse("abcd", 4) == 'a' + 1 ? 0 : 1;
}
`;

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const spans = (vulStart: number, vulEnd: number, fixStart: number, fixEnd: number) => ({
  vulSpan: { start: vulStart, end: vulEnd },
  fixSpan: { start: fixStart, end: fixEnd },
});

// Hunks: read_header's check (lines 5-7, middle 6), parse's body (13-15, middle 14), a header prototype
// (line 3, outside any function), a changelog and a new file.
const PATCH = lines(
  'diff --git a/ChangeLog b/ChangeLog',
  '--- a/ChangeLog',
  '+++ b/ChangeLog',
  '@@ -1 +1,2 @@',
  '+fix the header check',
  ' 1.0',
  'diff --git a/src/parser.c b/src/parser.c',
  'index 1234567..89abcde 100644',
  '--- a/src/parser.c',
  '+++ b/src/parser.c',
  '@@ -5,3 +5,3 @@ static int read_header(const char *p, int n)',
  '   if (n < 4)',
  '-    return -1;',
  '+    return -2;',
  '   return p[0];',
  '@@ -13,3 +13,4 @@ int parse(const char *p, int n)',
  '   if (h < 0)',
  '     return h;',
  '+  /* ok */',
  '   return h + 1;',
  'diff --git a/include/parser.h b/include/parser.h',
  '--- a/include/parser.h',
  '+++ b/include/parser.h',
  '@@ -3 +3 @@',
  '-int parse(const char *p, int n);',
  '+int parse(const char *p, unsigned n);',
  'diff --git a/src/limits.h b/src/limits.h',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/src/limits.h',
  '@@ -0,0 +1 @@',
  '+#define LIMIT 4',
);

describe('GroundTruthExtractor', () => {
  let extractor: GroundTruthExtractor;
  let workspace: string;

  beforeAll(async () => {
    extractor = await GroundTruthExtractor.create();
    workspace = await mkdtemp(join(tmpdir(), 'rca-eval-gt-'));
    const files: Record<string, string> = {
      'src-vul/libparse/src/parser.c': PARSER_C,
      'src-vul/libparse/include/parser.h': PARSER_H,
      'src-vul/libparse/tools/gen.py': 'def main():\n    return 1\n',
      'src-vul/libparse/src/reader.cpp': READER_CPP,
      'src-vul/libparse/tests/test_parser.c': TEST_PARSER_C,
    };
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(workspace, path)), { recursive: true });
      await writeFile(join(workspace, path), text);
    }
  });
  afterAll(() => rm(workspace, { recursive: true, force: true }));

  it('gives every code hunk its spans and the function around its middle line in the vulnerable tree', async () => {
    const truth = await extractor.fromPatch(PATCH, join(workspace, 'src-vul'));
    expect(truth).toEqual({
      project: 'libparse',
      notes: [],
      spans: [
        { file: 'src/parser.c', function: 'read_header', change: 'modified', ...spans(5, 7, 5, 7) },
        { file: 'src/parser.c', function: 'parse', change: 'modified', ...spans(13, 15, 13, 16) },
        { file: 'include/parser.h', function: '', change: 'modified', ...spans(3, 3, 3, 3) },
        { file: 'src/limits.h', function: '', change: 'added', vulSpan: null, fixSpan: { start: 1, end: 1 } },
      ],
      // The same but for the file the fix adds.
      rootCause: [
        { file: 'src/parser.c', function: 'read_header', change: 'modified', ...spans(5, 7, 5, 7) },
        { file: 'src/parser.c', function: 'parse', change: 'modified', ...spans(13, 15, 13, 16) },
        { file: 'include/parser.h', function: '', change: 'modified', ...spans(3, 3, 3, 3) },
      ],
    });
  });

  it('reads the project folder itself as the tree just as well', async () => {
    const truth = await extractor.fromPatch(PATCH, join(workspace, 'src-vul', 'libparse'));
    expect(truth.project).toBeNull();
    expect(truth.spans.map((span) => span.function)).toEqual(['read_header', 'parse', '', '']);
  });

  it('resolves the extra folder of a non-git diff against the tree', async () => {
    const patch = lines(
      '--- libparse-1.0.orig/src/parser.c\t2020-01-01 00:00:00.000000000 +0000',
      '+++ libparse-1.0/src/parser.c\t2020-01-02 00:00:00.000000000 +0000',
      '@@ -11,2 +11,2 @@',
      ' {',
      '-  int h = read_header(p, n);',
      '+  int h = read_header(p, n - 1);',
    );
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    expect(truth.spans).toEqual([{ file: 'src/parser.c', function: 'parse', change: 'modified', ...spans(11, 12, 11, 12) }]);
  });

  it('keeps hunks of files it cannot find or parse, without a function, and says which', async () => {
    const patch = lines(
      '--- a/src/gone.c',
      '+++ b/src/gone.c',
      '@@ -3 +3 @@',
      '-a',
      '+b',
      '--- a/tools/gen.py',
      '+++ b/tools/gen.py',
      '@@ -2 +2 @@',
      '-    return 1',
      '+    return 2',
    );
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    expect(truth.spans.map(({ file, function: fn }) => ({ file, fn }))).toEqual([
      { file: 'src/gone.c', fn: '' },
      { file: 'tools/gen.py', fn: '' },
    ]);
    expect(truth.notes).toEqual(['src/gone.c: not found in the vulnerable tree']);
    expect(truth.project).toBe('libparse');
  });

  it('reads a C++ file with the C++ grammar: a template method in a namespace, named without its class', async () => {
    const patch = lines('--- a/src/reader.cpp', '+++ b/src/reader.cpp', '@@ -7,2 +7,2 @@', '   if (got > left_)', '-    got = left_;', '+    got = left_ - 1;');
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    expect(truth.spans).toEqual([{ file: 'src/reader.cpp', function: 'take', change: 'modified', ...spans(7, 8, 7, 8) }]);
  });

  it('names a hunk that only adds lines by the function holding where they go, for the root cause', async () => {
    // A new function after read_header: the context lines (6-8, 9-11) centre on read_header's last line, 8.
    const patch = lines(
      ...['--- a/src/parser.c', '+++ b/src/parser.c', '@@ -6,6 +6,11 @@', '     return -1;', '   return p[0];', ' }'],
      ...['+', '+static int checked(int n)', '+{', '+  return n > 0;', '+}'],
      ...[' ', ' int parse(const char *p, int n)', ' {'],
    );
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    // The original's function: around the middle line. The root cause's: none holds lines 8 and 9 both.
    expect(truth.spans.map((span) => span.function)).toEqual(['read_header']);
    expect(truth.rootCause?.map((span) => span.function)).toEqual(['']);
  });

  it('finds no root-cause span in a fix that changes only tests, and keeps its spans for the original', async () => {
    const patch = lines(
      '--- a/tests/test_parser.c',
      '+++ b/tests/test_parser.c',
      '@@ -5 +5 @@',
      '-  return parse("abcd", 4) == \'a\' + 1 ? 0 : 1;',
      '+  return parse("abc", 3) < 0 ? 0 : 1;',
    );
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    expect(truth.spans).toEqual([{ file: 'tests/test_parser.c', function: 'main', change: 'modified', ...spans(5, 5, 5, 5) }]);
    expect(truth.rootCause).toEqual([]);
  });

  it('finds no span in a fix that changes no code file', async () => {
    const patch = lines(...['--- a/NEWS', '+++ b/NEWS', '@@ -1 +1 @@', '-a', '+b'], ...['--- a/docs/api.md', '+++ b/docs/api.md', '@@ -1 +1 @@', '-a', '+b']);
    const truth = await extractor.fromPatch(patch, join(workspace, 'src-vul'));
    expect(truth).toEqual({ spans: [], project: 'libparse', notes: [], rootCause: [] });
  });
});

describe('ground truth of the bundled samples', () => {
  const samplesDir = join(__dirname, '../../../../samples');
  let extractor: GroundTruthExtractor;
  beforeAll(async () => {
    extractor = await GroundTruthExtractor.create();
  });

  it.each([1, 2, 3, 4, 5])('finds the root-cause functions that sample %i documents', async (sample) => {
    const dir = join(samplesDir, String(sample));
    const meta = JSON.parse(await readFile(join(dir, 'sample.json'), 'utf8')) as {
      project: string;
      root_cause: Array<{ file: string; function: string }>;
    };
    const truth = await extractor.fromPatch(await readFile(join(dir, 'patch.diff'), 'utf8'), join(dir, 'source'));
    expect(truth.project).toBe(meta.project);
    expect(truth.notes).toEqual([]);
    expect(truth.spans.map(({ file, function: fn }) => ({ file, function: fn }))).toEqual(meta.root_cause);
  });

  it.each([1, 2, 3, 4, 5])('finds the same root cause in sample %i, whose fix changes its code alone', async (sample) => {
    const dir = join(samplesDir, String(sample));
    const truth = await extractor.fromPatch(await readFile(join(dir, 'patch.diff'), 'utf8'), join(dir, 'source'));
    expect(truth.rootCause).toEqual(truth.spans);
  });
});
