import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ArchiveExtractor } from './archive-extractor';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import { ArchiveWriter } from './archive-writer';
import { ExtractionChild } from './extraction-process.testing';
import { manyFiles, tarGz, writeTarGz, writeZipBomb, type FixtureEntry } from './tar-fixture.testing';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
// Creating 200,000 files costs a millisecond each on some CI disks: the large cases write to memory where
// they can, since what they measure is the agent's time and memory, not the disk's.
const FAST_TMP = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** Every path under `root` with what a change would alter: type, mode, size and mtime. */
async function snapshot(root: string, skip?: string): Promise<string[]> {
  const paths = (await readdir(root, { recursive: true })).map((entry) => join(root, entry));
  const kept = paths.filter((path) => skip === undefined || !(path === skip || path.startsWith(`${skip}/`)));
  const rows = await Promise.all(
    kept.map(async (path) => {
      const info = await lstat(path);
      return `${relative(root, path)} ${info.mode.toString(8)} ${info.size} ${info.mtimeMs}`;
    }),
  );
  return rows.sort();
}

async function files(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true }).catch(() => [])).sort();
}

describe('ArchiveExtractor with hostile archives', () => {
  const extractor = new ArchiveExtractor();
  let caseDir: string;
  let targetDir: string;
  let outside: string[];
  let savedUmask: number;

  beforeAll(() => {
    savedUmask = process.umask(0o022);
  });

  afterAll(() => {
    process.umask(savedUmask);
  });

  beforeEach(async () => {
    caseDir = await mkdtemp(join(tmpdir(), 'hostile-archive-'));
    targetDir = join(caseDir, 'task', 'workspace');
    await mkdir(targetDir, { recursive: true });
    // Something outside the workspace worth attacking: the test checks it is untouched afterwards.
    await mkdir(join(caseDir, 'outside', 'bin'), { recursive: true });
    await writeFile(join(caseDir, 'outside', 'secret.txt'), 'do not touch\n');
  });

  afterEach(async () => {
    expect(await snapshot(caseDir, targetDir)).toEqual(outside);
    await rm(caseDir, { recursive: true, force: true });
  });

  /** Writes the archive, notes the state outside the workspace, and extracts. */
  async function extract(archive: Buffer | ((file: string) => Promise<void>), limits?: Partial<ArchiveLimits>): Promise<void> {
    const file = join(caseDir, 'archive.tar.gz');
    await (Buffer.isBuffer(archive) ? writeFile(file, archive) : archive(file));
    outside = await snapshot(caseDir, targetDir);
    await extractor.extract(file, targetDir, 'src-vul', { limits });
  }

  it('extracts setuid, setgid and sticky entries without those bits, as rwx for the owner, and never as the archive owner', async () => {
    const root = { uid: 0, gid: 0 };
    await extract(
      tarGz([
        { type: 'Directory', path: 'src-vul/', mode: 0o2777, ...root },
        { type: 'File', path: 'src-vul/sh', content: '#!/bin/sh\n', mode: 0o4755, ...root },
        { type: 'File', path: 'src-vul/sgid', content: 'x', mode: 0o2711, uid: 12345, gid: 54321 },
        { type: 'File', path: 'src-vul/sticky', content: 'x', mode: 0o1666, ...root },
        { type: 'Directory', path: 'src-vul/tmp/', mode: 0o1777, ...root },
      ]),
    );

    const modes = await Promise.all(['', 'sh', 'sgid', 'sticky', 'tmp'].map(async (name) => (await stat(join(targetDir, 'src-vul', name))).mode & 0o7777));
    expect(modes.map((mode) => mode.toString(8))).toEqual(['755', '755', '755', '644', '755']);
    const owners = await Promise.all(['sh', 'sgid'].map(async (name) => (await stat(join(targetDir, 'src-vul', name))).uid));
    expect(owners).toEqual([process.getuid?.(), process.getuid?.()]);
  });

  it('keeps an absolute symbolic link as a link, pointing where it says and never followed', async () => {
    const secret = join(caseDir, 'outside', 'secret.txt');
    await extract(
      tarGz([
        { type: 'File', path: 'src-vul/p/configure', content: '#!/bin/sh\n', mode: 0o755 },
        { type: 'SymbolicLink', path: 'src-vul/p/config.guess', linkpath: '/usr/share/misc/config.guess' },
        { type: 'SymbolicLink', path: 'src-vul/p/secret.txt', linkpath: secret },
        { type: 'SymbolicLink', path: 'src-vul/p/bin', linkpath: join(caseDir, 'outside', 'bin') },
      ]),
    );

    const link = join(targetDir, 'src-vul', 'p', 'config.guess');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('/usr/share/misc/config.guess');
    expect(await readlink(join(targetDir, 'src-vul', 'p', 'secret.txt'))).toBe(secret);
    expect(await files(join(caseDir, 'outside'))).toEqual(['bin', 'secret.txt']);
  });

  it('refuses a file written through an absolute link, and writes nothing at all', async () => {
    await expect(
      extract(
        tarGz([
          { type: 'SymbolicLink', path: 'src-vul/bin', linkpath: join(caseDir, 'outside', 'bin') },
          { type: 'File', path: 'src-vul/bin/sh', content: 'pwned', mode: 0o4755 },
        ]),
      ),
    ).rejects.toThrow(expect.objectContaining({ code: 'BROKEN_ARCHIVE', message: expect.stringMatching(/"src-vul\/bin\/sh" lies behind a link that leaves src-vul\//) }));
    expect(await files(targetDir)).toEqual([]);
  });

  it('refuses a 47 MB gzip of a 10 GiB file at its header, by the limit of one file, writing nothing', async () => {
    const started = Date.now();
    await expect(extract((file) => writeZipBomb(file, 'src-vul/big', 10 * GiB))).rejects.toThrow(
      expect.objectContaining({
        code: 'ARCHIVE_TOO_LARGE',
        message: 'archive refused: "src-vul/big" holds more than 2 GiB, the limit of one file (ARCHIVE_MAX_FILE_BYTES)',
      }),
    );

    expect((await stat(join(caseDir, 'archive.tar.gz'))).size).toBeLessThan(48 * MiB);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await files(targetDir)).toEqual([]);
  });

  it('refuses files that together pass ARCHIVE_MAX_BYTES, writing nothing', async () => {
    const chunk = Buffer.alloc(400 * 1024, 'x');
    const entries: FixtureEntry[] = ['a', 'b', 'c'].map((name) => ({ type: 'File', path: `src-vul/${name}.bin`, content: chunk }));

    await expect(extract(tarGz(entries), { maxBytes: MiB })).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'archive refused: it unpacks to more than 1 MiB (ARCHIVE_MAX_BYTES)' }),
    );
    expect(await files(targetDir)).toEqual([]);
  });

  it('counts the bytes it writes, whatever the headers said: the writing pass alone stops a bomb at the limit', async () => {
    const archive = join(caseDir, 'archive.tar.gz');
    await writeZipBomb(archive, 'src-vul/big', GiB);
    outside = await snapshot(caseDir, targetDir);
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: 8 * MiB };

    await expect(new ArchiveWriter().write(archive, targetDir, 'src-vul', limits, new AbortController().signal)).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: expect.stringMatching(/more than 8 MiB, the limit of one file \(ARCHIVE_MAX_FILE_BYTES\)/) }),
    );
    expect((await stat(join(targetDir, 'src-vul', 'big'))).size).toBeLessThanOrEqual(8 * MiB);
  });
});

describe('ArchiveExtractor with 200,000 entries', () => {
  const extractor = new ArchiveExtractor();
  let archiveDir: string;
  let targetDir: string;
  const archive = (): string => join(archiveDir, 'many.tar.gz');

  beforeAll(async () => {
    archiveDir = await mkdtemp(join(tmpdir(), 'many-entries-'));
    await writeTarGz(archive(), manyFiles('src-vul', 200_000));
  }, 30_000);

  afterAll(async () => {
    await rm(archiveDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    targetDir = await mkdtemp(join(FAST_TMP, 'many-entries-target-'));
  });

  afterEach(async () => {
    await rm(targetDir, { recursive: true, force: true });
  });

  it('refuses them by ARCHIVE_MAX_ENTRIES when it is set lower, writing nothing', async () => {
    await expect(extractor.extract(archive(), targetDir, 'src-vul', { limits: { maxEntries: 10_000 } })).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'archive refused: it holds more than 10,000 entries (ARCHIVE_MAX_ENTRIES)' }),
    );
    expect(await files(targetDir)).toEqual([]);
  });

  it('extracts them at the default limits in a process that grows by less than 200 MB', async () => {
    const child = new ExtractionChild(['extract', archive(), targetDir]);
    const [line] = await child.output();
    const { rssBeforeMB, maxRssMB } = JSON.parse(line) as { seconds: number; rssBeforeMB: number; maxRssMB: number };

    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect((await readdir(join(targetDir, 'src-vul'))).length).toBe(200);
    expect((await readdir(join(targetDir, 'src-vul', 'd199'))).length).toBe(1000);
    // node-tar's own unpacker grew by 750 MB on these.
    expect(maxRssMB - rssBeforeMB).toBeLessThan(200);
  }, 90_000);
});

describe('ArchiveExtractor aborted mid-extraction', () => {
  const extractor = new ArchiveExtractor();
  let caseDir: string;
  let archive: string;
  let targetDir: string;

  beforeEach(async () => {
    caseDir = await mkdtemp(join(tmpdir(), 'aborted-extraction-'));
    archive = join(caseDir, 'many.tar.gz');
    await writeTarGz(archive, manyFiles('src-vul', 20_000));
    targetDir = join(caseDir, 'workspace');
  });

  afterEach(async () => {
    await rm(caseDir, { recursive: true, force: true });
  });

  it('stops at once when aborted while writing, and leaves no src-vul/ behind', async () => {
    const controller = new AbortController();
    const extraction = extractor.extract(archive, targetDir, 'src-vul', { signal: controller.signal });
    extraction.catch(() => undefined);
    while (!existsSync(join(targetDir, 'src-vul', 'd001'))) await new Promise((resolve) => setTimeout(resolve, 5));

    const abortedAt = Date.now();
    controller.abort();

    await expect(extraction).rejects.toThrow(expect.objectContaining({ code: 'EXTRACTION_ABORTED' }));
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(await files(caseDir)).toEqual(['many.tar.gz', 'workspace']);
    // Nothing still writes into it: tar is gone before the extraction rejects.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await files(targetDir)).toEqual([]);
  }, 30_000);

  it('refuses to start once aborted', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(extractor.extract(archive, targetDir, 'src-vul', { signal: controller.signal })).rejects.toThrow(
      expect.objectContaining({ code: 'EXTRACTION_ABORTED', message: 'extraction stopped: the green agent is shutting down' }),
    );
    expect(existsSync(targetDir)).toBe(false);
  });
});
