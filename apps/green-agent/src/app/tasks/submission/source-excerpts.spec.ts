import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Prediction } from '@arvo-rca/loc-json';
import type { GroundTruth } from '@arvo-rca/rca-eval';
import { sourceExcerpts } from './source-excerpts';

const lines = (count: number): string => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('source excerpts for the record', () => {
  let root: string;
  let srcVul: string;
  const truth: GroundTruth = {
    spans: [{ file: 'src/a.c', function: 'f', vulSpan: { start: 50, end: 52 }, fixSpan: { start: 50, end: 53 }, change: 'modified' }],
    project: 'proj',
    notes: [],
  };
  const answer = (...locations: { file: string; line_start: number; line_end: number }[]): Prediction[] =>
    locations.map(({ file, line_start, line_end }) => ({ file, function: 'f', span: { start: line_start, end: line_end } }));

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'excerpts-'));
    srcVul = join(root, 'src-vul');
    mkdirSync(join(srcVul, 'proj', 'src'), { recursive: true });
    writeFileSync(join(srcVul, 'proj', 'src', 'a.c'), lines(400));
    writeFileSync(join(root, 'secret.txt'), 'not for the record');
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("marks the fix's lines and the solver's ranked guesses on one excerpt when they are near, with context around them", async () => {
    const excerpts = await sourceExcerpts(srcVul, truth, answer({ file: '/workspace/src-vul/proj/src/a.c', line_start: 55, line_end: 56 }));

    expect(excerpts).toEqual([
      { path: 'src/a.c', start: 42, lines: expect.any(Array), fix: [{ start: 50, end: 52 }], predicted: [{ start: 55, end: 56, rank: 1 }] },
    ]);
    expect(excerpts[0].lines[0]).toBe('line 42');
    expect(excerpts[0].lines.at(-1)).toBe('line 64');
  });

  it('gives far-apart marks an excerpt each', async () => {
    const excerpts = await sourceExcerpts(srcVul, truth, answer({ file: 'src/a.c', line_start: 300, line_end: 301 }));

    expect(excerpts.map((excerpt) => [excerpt.start, excerpt.fix.length, excerpt.predicted.map((span) => span.rank)])).toEqual([
      [42, 1, []],
      [292, 0, [1]],
    ]);
  });

  it('shows nothing of a file outside the tree, or of one that is not there, whatever the solver names', async () => {
    const excerpts = await sourceExcerpts(
      srcVul,
      truth,
      answer({ file: '../../secret.txt', line_start: 1, line_end: 1 }, { file: 'src/missing.c', line_start: 1, line_end: 2 }),
    );

    expect(excerpts.map((excerpt) => excerpt.path)).toEqual(['src/a.c']);
    expect(JSON.stringify(excerpts)).not.toContain('not for the record');
  });

  it('shows nothing of FIFOs, a 1.5 GiB sparse file or a link to /etc/shadow the solver named, reads none of them, and holds no file-I/O thread', async () => {
    const shared = join(srcVul, 'proj', 'src');
    // More FIFOs than libuv has file-I/O threads (4): one held each would starve every later read.
    const fifos = Array.from({ length: 6 }, (_, index) => `src/pipe${index}.c`);
    for (const fifo of fifos) execFileSync('mkfifo', [join(srcVul, 'proj', fifo)]);
    writeFileSync(join(shared, 'huge.c'), '');
    truncateSync(join(shared, 'huge.c'), 1.5 * 1024 ** 3);
    symlinkSync('/etc/shadow', join(shared, 'shadow.c'));
    const named = [...fifos, 'src/huge.c', 'src/shadow.c'].map((file) => ({ file, line_start: 1, line_end: 2 }));
    const rssBefore = process.memoryUsage().rss;

    const excerpts = await sourceExcerpts(srcVul, truth, answer(...named));

    expect(excerpts.map((excerpt) => excerpt.path)).toEqual(['src/a.c']);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
    const started = performance.now();
    await readFile(join(shared, 'a.c'));
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
