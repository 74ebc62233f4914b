import { isCodeFile, parsePatchHunks } from './patch-hunks';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

describe('parsePatchHunks', () => {
  it('gives each hunk of each file its vulnerable and fixed spans, context included', () => {
    const patch = lines(
      'diff --git a/src/parse.c b/src/parse.c',
      'index 1111111..2222222 100644',
      '--- a/src/parse.c',
      '+++ b/src/parse.c',
      '@@ -1,4 +1,5 @@',
      ' #include <a.h>',
      '+#include <b.h>',
      ' ',
      ' int x;',
      ' int y;',
      '@@ -40,7 +41,6 @@ static int parse(void)',
      ' a',
      ' b',
      ' c',
      '-d',
      ' e',
      ' f',
      ' g',
      'diff --git a/include/parse.h b/include/parse.h',
      'index 3333333..4444444 100644',
      '--- a/include/parse.h',
      '+++ b/include/parse.h',
      '@@ -12 +12 @@',
      '-#define MAX 10',
      '+#define MAX 16',
    );
    expect(parsePatchHunks(patch)).toEqual([
      // -1,4 +1,5: [1, 1+4-1] and [1, 1+5-1]; it only adds a line, after line 1
      { file: 'src/parse.c', change: 'modified', vulSpan: { start: 1, end: 4 }, fixSpan: { start: 1, end: 5 }, insertedAfter: [1] },
      // -40,7 +41,6: [40, 46] and [41, 46]
      { file: 'src/parse.c', change: 'modified', vulSpan: { start: 40, end: 46 }, fixSpan: { start: 41, end: 46 } },
      // counts default to 1: [12, 12] on both sides
      { file: 'include/parse.h', change: 'modified', vulSpan: { start: 12, end: 12 }, fixSpan: { start: 12, end: 12 } },
    ]);
  });

  it('reads a new file (from /dev/null) as having no vulnerable span', () => {
    const patch = lines(
      'diff --git a/src/limits.h b/src/limits.h',
      'new file mode 100644',
      'index 0000000..5555555',
      '--- /dev/null',
      '+++ b/src/limits.h',
      '@@ -0,0 +1,3 @@',
      '+#pragma once',
      '+#define A 1',
      '+#define B 2',
    );
    expect(parsePatchHunks(patch)).toEqual([{ file: 'src/limits.h', change: 'added', vulSpan: null, fixSpan: { start: 1, end: 3 } }]);
  });

  it('reads a deleted file (to /dev/null) by its old path, with no fixed span', () => {
    const patch = lines(
      'diff --git a/src/old.c b/src/old.c',
      'deleted file mode 100644',
      '--- a/src/old.c',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-int a;',
      '-int b;',
    );
    expect(parsePatchHunks(patch)).toEqual([{ file: 'src/old.c', change: 'deleted', vulSpan: { start: 1, end: 2 }, fixSpan: null }]);
  });

  it('takes the two lines around a pure insertion or deletion of a context-free diff', () => {
    const patch = lines(
      '--- a/src/x.c',
      '+++ b/src/x.c',
      '@@ -10,0 +11,2 @@',
      '+if (!p)',
      '+  return -1;',
      '@@ -30,3 +31,0 @@',
      '-a',
      '-b',
      '-c',
      '@@ -0,0 +1 @@',
      '+/* header */',
    );
    expect(parsePatchHunks(patch).map(({ vulSpan, fixSpan }) => ({ vulSpan, fixSpan }))).toEqual([
      // inserted after line 10 of the vulnerable file: lines 10 and 11 surround it
      { vulSpan: { start: 10, end: 11 }, fixSpan: { start: 11, end: 12 } },
      // deleted after line 31 of the fixed file: lines 31 and 32 surround the gap
      { vulSpan: { start: 30, end: 32 }, fixSpan: { start: 31, end: 32 } },
      // inserted before line 1 of an existing file: line 1
      { vulSpan: { start: 1, end: 1 }, fixSpan: { start: 1, end: 1 } },
    ]);
  });

  it('reads non-git `diff -u` headers with timestamps, keeping their own folder prefix', () => {
    const patch = lines(
      'diff -ru lib-1.0.orig/src/x.c lib-1.0/src/x.c',
      '--- lib-1.0.orig/src/x.c\t2019-03-01 10:00:00.000000000 +0100',
      '+++ lib-1.0/src/x.c\t2019-03-02 11:00:00.000000000 +0100',
      '@@ -5,3 +5,3 @@',
      ' a',
      '-b',
      '+c',
      ' d',
      '--- old/y.c 2019-03-01 10:00:00 +0100',
      '+++ new/y.c 2019-03-02 11:00:00 +0100',
      '@@ -1 +1 @@',
      '-x',
      '+y',
    );
    expect(parsePatchHunks(patch).map((hunk) => hunk.file)).toEqual(['lib-1.0/src/x.c', 'new/y.c']);
  });

  it('strips a/ and b/ from plain diffs that use them, and unquotes quoted names', () => {
    const patch = lines(
      '--- a/src/x.c',
      '+++ b/src/x.c',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      'diff --git "a/src/we ird.c" "b/src/we ird.c"',
      '--- "a/src/we ird.c"',
      '+++ "b/src/we ird.c"',
      '@@ -2 +2 @@',
      '-x',
      '+y',
    );
    expect(parsePatchHunks(patch).map((hunk) => hunk.file)).toEqual(['src/x.c', 'src/we ird.c']);
  });

  it('never takes a removed or added line for a header, because hunk lines are counted', () => {
    const patch = lines(
      'diff --git a/src/x.c b/src/x.c',
      '--- a/src/x.c',
      '+++ b/src/x.c',
      '@@ -1,3 +1,3 @@',
      '--- a/evil.c',
      '+++ b/evil.c',
      ' @@ -1 +1 @@',
      '-@@ -100,2 +100,2 @@',
      '+x',
    );
    expect(parsePatchHunks(patch)).toEqual([{ file: 'src/x.c', change: 'modified', vulSpan: { start: 1, end: 3 }, fixSpan: { start: 1, end: 3 } }]);
  });

  it('tolerates CRLF line ends, "no newline" markers, and text before the first file', () => {
    const patch = [
      'From abc Mon Sep 17 00:00:00 2001',
      'Subject: [PATCH] fix',
      '---',
      ' src/x.c | 2 +-',
      'diff --git a/src/x.c b/src/x.c',
      '--- a/src/x.c',
      '+++ b/src/x.c',
      '@@ -7,2 +7,2 @@',
      '-a',
      '\\ No newline at end of file',
      '+b',
      ' c',
    ].join('\r\n');
    expect(parsePatchHunks(patch)).toEqual([{ file: 'src/x.c', change: 'modified', vulSpan: { start: 7, end: 8 }, fixSpan: { start: 7, end: 8 } }]);
  });

  it('notes where a hunk that only adds lines inserts them, as the vulnerable-file line each insertion follows', () => {
    const patch = lines(
      '--- a/src/x.c',
      '+++ b/src/x.c',
      '@@ -10,5 +10,8 @@',
      ' a',
      '+b',
      '+c',
      ' d',
      ' e',
      '+f',
      ' g',
      ' h',
      '@@ -30,0 +34,1 @@',
      '+i',
      '@@ -40,2 +45,3 @@',
      '+j',
      ' k',
      ' l',
    );
    expect(parsePatchHunks(patch).map((hunk) => hunk.insertedAfter)).toEqual([
      // after a (line 10) and after e (line 12)
      [10, 12],
      // a context-free insertion after line 30
      [30],
      // before line 40, the hunk's first
      [39],
    ]);
  });

  it('notes no insertion for a hunk that also removes lines, nor for a new file', () => {
    const patch = lines(
      ...['--- a/src/x.c', '+++ b/src/x.c', '@@ -1,2 +1,3 @@', ' a', '-b', '+c', '+d'],
      ...['--- /dev/null', '+++ b/src/y.c', '@@ -0,0 +1 @@', '+e'],
    );
    expect(parsePatchHunks(patch).map((hunk) => 'insertedAfter' in hunk)).toEqual([false, false]);
  });

  it('reads past the "Binary files ... differ" lines of git and of diff -r between text files', () => {
    const git = lines(
      ...['diff --git a/src/x.c b/src/x.c', '--- a/src/x.c', '+++ b/src/x.c', '@@ -1 +1 @@', '-a', '+b'],
      ...['diff --git a/tests/crash.bin b/tests/crash.bin', 'new file mode 100644', 'index 0000000..422c0d9'],
      'Binary files /dev/null and b/tests/crash.bin differ',
      ...['diff --git a/logo.png b/logo.png', 'index 1111111..2222222 100644', 'Binary files a/logo.png and b/logo.png differ'],
      ...['diff --git a/src/y.c b/src/y.c', '--- a/src/y.c', '+++ b/src/y.c', '@@ -2 +2 @@', '-c', '+d'],
    );
    // diff -ruN gives a binary file one line, with no `diff` line before it.
    const diffR = lines(
      ...['diff -ruN a/src/x.c b/src/x.c', '--- a/src/x.c\t2020-01-01 00:00:00.000000000 +0000', '+++ b/src/x.c\t2020-01-02 00:00:00.000000000 +0000'],
      ...['@@ -1 +1 @@', '-a', '+b'],
      'Binary files a/logo.bin and b/logo.bin differ',
      ...['diff -ruN a/src/y.c b/src/y.c', '--- a/src/y.c\t2020-01-01 00:00:00.000000000 +0000', '+++ b/src/y.c\t2020-01-02 00:00:00.000000000 +0000'],
      ...['@@ -2 +2 @@', '-c', '+d'],
    );
    const expected = [
      { file: 'src/x.c', change: 'modified', vulSpan: { start: 1, end: 1 }, fixSpan: { start: 1, end: 1 } },
      { file: 'src/y.c', change: 'modified', vulSpan: { start: 2, end: 2 }, fixSpan: { start: 2, end: 2 } },
    ];
    expect(parsePatchHunks(git)).toEqual(expected);
    expect(parsePatchHunks(diffR)).toEqual(expected);
  });

  it('finds no hunk in a diff without any', () => {
    expect(parsePatchHunks('')).toEqual([]);
    const binary = lines('diff --git a/logo.png b/logo.png', 'Binary files a/logo.png and b/logo.png differ');
    expect(parsePatchHunks(binary)).toEqual([]);
  });
});

describe('isCodeFile', () => {
  it.each(['a.c', 'src/a.cc', 'a.CPP', 'x/a.cxx', 'a.h', 'a.hpp', 'a.hh', 'lib.rs', 'main.go', 'tool.py'])('counts %s as code', (path) =>
    expect(isCodeFile(path)).toBe(true),
  );
  it.each(['ChangeLog', 'NEWS', 'docs/index.md', 'doc/a.html', 'Makefile', 'configure.ac', 'a.cmake', '.c', 'x.pyc'])('does not count %s', (path) =>
    expect(isCodeFile(path)).toBe(false),
  );
});
