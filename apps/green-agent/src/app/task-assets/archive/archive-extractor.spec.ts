import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Parser } from 'tar';
import { ArchiveExtractor } from './archive-extractor';
import { manyFiles, tarGz, type FixtureEntry } from './tar-fixture.testing';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', '..', 'samples');
const FILE_A: FixtureEntry = { type: 'File', path: 'src-vul/p/a.c', content: 'int a;\n' };
const FILE_B: FixtureEntry = { type: 'File', path: 'src-vul/p/b.c', content: 'int b;\n' };

/** Every path under `root`, relative to it, sorted. */
async function listTree(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true });
  return entries.map((entry) => relative(root, join(root, entry))).sort();
}

describe('ArchiveExtractor', () => {
  const extractor = new ArchiveExtractor();
  let caseDir: string;
  let targetDir: string;

  beforeEach(async () => {
    caseDir = await mkdtemp(join(tmpdir(), 'archive-extractor-'));
    // Deep enough that every `../` trick below would land inside caseDir, where the test can see it.
    targetDir = join(caseDir, 'a', 'b', 'c', 'target');
    await mkdir(targetDir, { recursive: true });
  });

  afterEach(async () => {
    await rm(caseDir, { recursive: true, force: true });
  });

  /** Writes `caseDir/archive.tar.gz` holding the entries; returns its path. */
  async function archiveOf(entries: FixtureEntry[]): Promise<string> {
    const archive = join(caseDir, 'archive.tar.gz');
    await writeFile(archive, tarGz(entries));
    return archive;
  }

  async function extract(entries: FixtureEntry[]): Promise<void> {
    await extractor.extract(await archiveOf(entries), targetDir, 'src-vul');
  }

  it('extracts the sample archive: the source tree under src-vul/', async () => {
    await extractor.extract(join(SAMPLES_DIR, '1', 'repo-vul.tar.gz'), targetDir, 'src-vul');

    const tree = await listTree(targetDir);
    expect(tree).toContain('src-vul/tlvkit/src/cursor.c');
    expect(tree.every((path) => path.startsWith('src-vul'))).toBe(true);
    expect(await readFile(join(targetDir, 'src-vul/tlvkit/src/cursor.c'), 'utf8')).toContain('tlv_cursor_be32');
  });

  it('keeps links that stay inside the tree', async () => {
    await extract([
      { type: 'File', path: 'src-vul/p/include/p.h', content: '#define P 1\n' },
      { type: 'SymbolicLink', path: 'src-vul/p/inc', linkpath: 'include' },
      { type: 'Link', path: 'src-vul/p/copy.h', linkpath: 'src-vul/p/include/p.h' },
    ]);

    expect(await readlink(join(targetDir, 'src-vul/p/inc'))).toBe('include');
    expect(await readFile(join(targetDir, 'src-vul/p/inc/p.h'), 'utf8')).toBe('#define P 1\n');
    expect(await readFile(join(targetDir, 'src-vul/p/copy.h'), 'utf8')).toBe('#define P 1\n');
  });

  it('writes a name with a backslash under that very name, not into a folder of its first part', async () => {
    await extract([
      { type: 'Directory', path: 'src-vul/units/' },
      { type: 'File', path: 'src-vul/units/system-systemd\\x2dcryptsetup.slice', content: '[Unit]\n' },
    ]);

    expect(await listTree(join(targetDir, 'src-vul'))).toEqual(['units', 'units/system-systemd\\x2dcryptsetup.slice']);
  });

  const hostile: [string, (caseDir: string) => FixtureEntry[], RegExp][] = [
    ['a ../ entry', () => [{ type: 'File', path: 'src-vul/../../../escaped.txt', content: 'pwned' }], /contains '\.\.'/],
    ['an absolute entry', (dir) => [{ type: 'File', path: join(dir, 'escaped.txt'), content: 'pwned' }], /has an absolute path/],
    [
      'a symlink climbing out, and a file written through it',
      () => [
        { type: 'SymbolicLink', path: 'src-vul/p/up', linkpath: '../../../../..' },
        { type: 'File', path: 'src-vul/p/up/escaped.txt', content: 'pwned' },
      ],
      /symbolic link "src-vul\/p\/up" -> "..\/..\/..\/..\/.." points outside src-vul\//,
    ],
    [
      'a file written through an absolute symlink',
      (dir) => [
        { type: 'SymbolicLink', path: 'src-vul/out', linkpath: dir },
        { type: 'File', path: 'src-vul/out/escaped.txt', content: 'pwned' },
      ],
      /"src-vul\/out\/escaped.txt" lies behind a link that leaves src-vul\//,
    ],
    [
      'a hard link to a file outside',
      (dir) => [{ type: 'Link', path: 'src-vul/passwd', linkpath: join(dir, 'archive.tar.gz') }],
      /hard link .* points to an absolute path/,
    ],
    ['an entry outside src-vul/', () => [{ type: 'File', path: 'shared/loc.json', content: '{}' }], /"shared\/loc.json" is outside src-vul\//],
  ];

  it.each(hostile)('refuses an archive with %s, and writes nothing at all', async (_name, entries, reason) => {
    const before = await listTree(caseDir);

    await expect(extract([FILE_A, ...entries(caseDir), FILE_A])).rejects.toThrow(
      expect.objectContaining({ code: 'BROKEN_ARCHIVE', message: expect.stringMatching(reason) }),
    );
    expect(await listTree(targetDir)).toEqual([]);
    expect(await listTree(caseDir)).toEqual([...before, 'archive.tar.gz'].sort());
  });

  it.each([
    ['random bytes', () => Buffer.from('this is not an archive at all, not even gzip')],
    ['an empty file', () => Buffer.alloc(0)],
    ['a truncated gzip stream', async () => (await readFile(join(SAMPLES_DIR, '1', 'repo-vul.tar.gz'))).subarray(0, 2000)],
  ])('fails clearly on %s', async (_name, bytes) => {
    const archive = join(caseDir, 'broken.tar.gz');
    await writeFile(archive, await bytes());

    await expect(extractor.extract(archive, targetDir, 'src-vul')).rejects.toThrow(
      expect.objectContaining({ code: 'BROKEN_ARCHIVE', message: expect.stringMatching(/archive is corrupt or truncated: .+/) }),
    );
    expect(await listTree(targetDir)).toEqual([]);
  });

  describe('with a copy of the checked stream (a sandbox copying the tree in on the way)', () => {
    /** Path, type, mode, owner and link of each entry the copy got, and whether it got the stream's end. */
    async function extractWithCopy(entries: FixtureEntry[]): Promise<{ listed: string[]; ended: boolean }> {
      const archive = await archiveOf(entries);
      const copy = new PassThrough();
      const listed: string[] = [];
      const parser = new Parser({
        onReadEntry: (entry) => {
          listed.push(`${entry.type} ${entry.path} ${(entry.mode ?? 0).toString(8)} ${entry.uid}:${entry.gid}${entry.linkpath ? ` -> ${entry.linkpath}` : ''}`);
          entry.resume();
        },
      });
      const read = new Promise<boolean>((resolve) => copy.on('end', () => resolve(true)).on('close', () => resolve(copy.readableEnded)));
      copy.pipe(parser);
      await extractor.extract(archive, targetDir, 'src-vul', { copy });
      return { listed, ended: await read };
    }

    it('gets the tree as it is written on the host: the entries let through, with no owner and no set-id bit', async () => {
      const { listed, ended } = await extractWithCopy([
        { type: 'Directory', path: 'src-vul/p/', uid: 1234, gid: 1234 },
        { type: 'File', path: 'src-vul/p/a.c', content: 'int a;\n', mode: 0o4775, uid: 1234, gid: 1234 },
        { type: 'SymbolicLink', path: 'src-vul/p/inc', linkpath: '.' },
        { type: 'Directory', path: './' },
      ]);

      expect(listed).toEqual(['Directory src-vul/p/ 755 0:0', 'File src-vul/p/a.c 755 0:0', 'SymbolicLink src-vul/p/inc 777 0:0 -> .']);
      expect(ended).toBe(true);
      expect(await readFile(join(targetDir, 'src-vul/p/a.c'), 'utf8')).toBe('int a;\n');
    });

    it('goes on without the copy once its reader closes it', async () => {
      const archive = await archiveOf([...manyFiles('src-vul', 3000)]);
      const copy = new Writable({ highWaterMark: 1024, write: () => copy.destroy() });

      await extractor.extract(archive, targetDir, 'src-vul', { copy });

      expect(copy.destroyed).toBe(true);
      expect((await listTree(join(targetDir, 'src-vul'))).filter((path) => path.endsWith('.c'))).toHaveLength(3000);
    });

    it('writes on the host only the files `keep` names (every folder and link, and hard links to kept files), while the copy gets them all', async () => {
      const keep = (path: string): boolean => path.endsWith('/a.c');
      const archive = await archiveOf([
        FILE_A,
        FILE_B,
        { type: 'Directory', path: 'src-vul/p/empty/' },
        { type: 'SymbolicLink', path: 'src-vul/p/inc', linkpath: 'empty' },
        { type: 'Link', path: 'src-vul/p/a-again.c', linkpath: 'src-vul/p/a.c' },
        { type: 'Link', path: 'src-vul/p/b-again.c', linkpath: 'src-vul/p/b.c' },
      ]);
      const copy = new PassThrough();
      const listed: string[] = [];
      copy.pipe(new Parser({ onReadEntry: (entry) => (listed.push(entry.path), entry.resume()) }));

      await extractor.extract(archive, targetDir, 'src-vul', { copy, keep });

      expect(await listTree(join(targetDir, 'src-vul'))).toEqual(['p', 'p/a-again.c', 'p/a.c', 'p/empty', 'p/inc']);
      expect(await readFile(join(targetDir, 'src-vul/p/a-again.c'), 'utf8')).toBe('int a;\n');
      expect(listed).toEqual(['src-vul/p/a.c', 'src-vul/p/b.c', 'src-vul/p/empty/', 'src-vul/p/inc', 'src-vul/p/a-again.c', 'src-vul/p/b-again.c']);
    });

    it('adds files to a tree it wrote before, and leaves that tree as it was when adding fails', async () => {
      const archive = await archiveOf([FILE_A, FILE_B]);
      await extractor.extract(archive, targetDir, 'src-vul', { keep: (path) => path.endsWith('/a.c') });

      await extractor.extract(archive, targetDir, 'src-vul', { keep: (path) => path.endsWith('/b.c'), adding: true });
      expect(await listTree(join(targetDir, 'src-vul'))).toEqual(['p', 'p/a.c', 'p/b.c']);

      await writeFile(archive, (await readFile(archive)).subarray(0, 40));
      await expect(extractor.extract(archive, targetDir, 'src-vul', { keep: () => true, adding: true })).rejects.toMatchObject({ code: 'BROKEN_ARCHIVE' });
      expect(await listTree(join(targetDir, 'src-vul'))).toEqual(['p', 'p/a.c', 'p/b.c']);
    });

    it('starts the copy at the first entry, without a header pass: an archive cut short gives it its first entries, then closes it without its end', async () => {
      const archive = join(caseDir, 'archive.tar.gz');
      const files: FixtureEntry[] = Array.from({ length: 8 }, (_, i) => ({ type: 'File', path: `src-vul/f${i}.bin`, content: randomBytes(32 * 1024) }));
      const whole = tarGz([{ type: 'Directory', path: 'src-vul/' }, ...files]);
      await writeFile(archive, whole.subarray(0, whole.length / 2));
      const got: Buffer[] = [];
      const copy = new Writable({ write: (chunk: Buffer, _encoding, done) => (got.push(chunk), done()) });

      await expect(extractor.extract(archive, targetDir, 'src-vul', { copy })).rejects.toMatchObject({ code: 'BROKEN_ARCHIVE' });

      const listed: string[] = [];
      new Parser({ onReadEntry: (entry) => (listed.push(entry.path), entry.resume()) }).write(Buffer.concat(got));
      expect(listed.slice(0, 2)).toEqual(['src-vul/', 'src-vul/f0.bin']);
      expect([copy.destroyed, copy.writableEnded]).toEqual([true, false]);
      expect(await listTree(targetDir)).toEqual([]);
    });

    it('refuses a hostile entry after good ones with a copy too, and the host keeps nothing of the tree', async () => {
      const archive = await archiveOf([...manyFiles('src-vul', 2000), { type: 'SymbolicLink', path: 'src-vul/up', linkpath: '../..' }]);
      const copy = new Writable({ write: (_chunk, _encoding, done) => done() });

      await expect(extractor.extract(archive, targetDir, 'src-vul', { copy, keep: () => false })).rejects.toThrow(
        expect.objectContaining({ code: 'BROKEN_ARCHIVE', message: expect.stringMatching(/points outside src-vul\//) }),
      );
      expect([copy.destroyed, copy.writableEnded]).toEqual([true, false]);
      expect(await listTree(targetDir)).toEqual([]);
    });

    it('closes the copy without its end when the archive is refused', async () => {
      const archive = await archiveOf([{ type: 'File', path: 'src-vul/../../escaped.txt', content: 'pwned' }]);
      const copy = new PassThrough();

      await expect(extractor.extract(archive, targetDir, 'src-vul', { copy })).rejects.toMatchObject({ code: 'BROKEN_ARCHIVE' });
      expect([copy.destroyed, copy.writableEnded]).toEqual([true, false]);
    });
  });

  it('leaves a symlink inside the tree as a link, never following it on the host', async () => {
    await extract([
      { type: 'Directory', path: 'src-vul/p/' },
      { type: 'SymbolicLink', path: 'src-vul/self', linkpath: 'p' },
    ]);

    expect((await lstat(join(targetDir, 'src-vul/self'))).isSymbolicLink()).toBe(true);
  });
});
