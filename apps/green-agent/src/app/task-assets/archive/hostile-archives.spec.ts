import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdtemp, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Parser } from 'tar';
import { ArchiveExtractor } from './archive-extractor';
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from './archive-limits';
import { ArchiveWriter } from './archive-writer';
import { ExtractionChild } from './extraction-process.testing';
import { FAST_TMP, HostileScene, listTree } from './hostile-scene.testing';
import { manyFiles, tarGz, writeTarGz, writeZipBomb, type FixtureEntry } from './tar-fixture.testing';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('ArchiveExtractor with hostile archives', () => {
  const extractor = new ArchiveExtractor();
  let scene: HostileScene;
  let savedUmask: number;

  beforeAll(() => {
    savedUmask = process.umask(0o022);
  });

  afterAll(() => {
    process.umask(savedUmask);
  });

  beforeEach(async () => {
    scene = await HostileScene.create();
  });

  afterEach(async () => {
    const [now, noted] = await scene.outsideNowAndNoted();
    expect(now).toEqual(noted);
    await scene.remove();
  });

  /** Writes the archive beside the workspace, notes the state outside the workspace, and extracts. */
  async function extract(archive: Buffer | ((file: string) => Promise<void>), limits?: Partial<ArchiveLimits>): Promise<void> {
    const file = join(scene.dir, 'archive.tar.gz');
    await (Buffer.isBuffer(archive) ? writeFile(file, archive) : archive(file));
    await scene.noteOutside();
    await extractor.extract(file, scene.workspace, 'src-vul', { limits });
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

    const stats = await Promise.all(['', 'sh', 'sgid', 'sticky', 'tmp'].map((name) => stat(join(scene.workspace, 'src-vul', name))));
    expect(stats.map((info) => (info.mode & 0o7777).toString(8))).toEqual(['755', '755', '755', '644', '755']);
    expect(new Set(stats.map((info) => info.uid))).toEqual(new Set([process.getuid?.()]));
  });

  it('keeps an absolute symbolic link as a link, pointing where it says and never followed', async () => {
    const secret = join(scene.outside, 'secret.txt');
    await extract(
      tarGz([
        { type: 'File', path: 'src-vul/p/configure', content: '#!/bin/sh\n', mode: 0o755 },
        { type: 'SymbolicLink', path: 'src-vul/p/config.guess', linkpath: '/usr/share/misc/config.guess' },
        { type: 'SymbolicLink', path: 'src-vul/p/secret.txt', linkpath: secret },
        { type: 'SymbolicLink', path: 'src-vul/p/bin', linkpath: join(scene.outside, 'bin') },
      ]),
    );

    const link = join(scene.workspace, 'src-vul', 'p', 'config.guess');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe('/usr/share/misc/config.guess');
    expect(await readlink(join(scene.workspace, 'src-vul', 'p', 'secret.txt'))).toBe(secret);
    expect(await listTree(scene.outside)).toEqual(['bin', 'secret.txt']);
  });

  it('refuses a file written through an absolute link, and writes nothing at all', async () => {
    await expect(
      extract(
        tarGz([
          { type: 'SymbolicLink', path: 'src-vul/bin', linkpath: join(scene.outside, 'bin') },
          { type: 'File', path: 'src-vul/bin/sh', content: 'pwned', mode: 0o4755 },
        ]),
      ),
    ).rejects.toThrow(
      expect.objectContaining({ code: 'BROKEN_ARCHIVE', message: expect.stringMatching(/"src-vul\/bin\/sh" lies behind a link that leaves src-vul\//) }),
    );
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('refuses a 47 MB gzip of a 10 GiB file at its header, by the limit of one file, writing nothing', async () => {
    const started = Date.now();
    await expect(extract((file) => writeZipBomb(file, 'src-vul/big', 10 * GiB))).rejects.toThrow(
      expect.objectContaining({
        code: 'ARCHIVE_TOO_LARGE',
        message: 'archive refused: "src-vul/big" holds more than 2.0 GiB, the limit of one file (ARCHIVE_MAX_FILE_BYTES)',
      }),
    );

    expect((await stat(join(scene.dir, 'archive.tar.gz'))).size).toBeLessThan(48 * MiB);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('refuses a tree that unpacks past the compression-ratio guard, naming the guard, the ratio seen and its variable', async () => {
    // All zeros: gzip packs them about 1030:1, past the default of 1000, as a real all-zero image would.
    const zeros: FixtureEntry[] = [{ type: 'File', path: 'src-vul/zeros.img', content: Buffer.alloc(64 * MiB) }];

    await expect(extract(tarGz(zeros))).rejects.toThrow(
      expect.objectContaining({
        code: 'ARCHIVE_TOO_LARGE',
        message: expect.stringMatching(
          /^archive refused by the compression-ratio guard: it unpacked to \d+\.\d+ times the bytes read of it, past the limit of 1000 \(ARCHIVE_MAX_COMPRESSION_RATIO; .*0 to turn the guard off/,
        ),
      }),
    );
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('extracts the same all-zero tree with the guard raised, or turned off with 0', async () => {
    const zeros: FixtureEntry[] = [{ type: 'File', path: 'src-vul/zeros.img', content: Buffer.alloc(64 * MiB) }];

    for (const maxCompressionRatio of [2000, 0]) {
      await extract(tarGz(zeros), { maxCompressionRatio });
      expect((await stat(join(scene.workspace, 'src-vul', 'zeros.img'))).size).toBe(64 * MiB);
      await rm(join(scene.workspace, 'src-vul'), { recursive: true });
    }
  });

  it('refuses files that together pass ARCHIVE_MAX_BYTES, writing nothing', async () => {
    const chunk = Buffer.alloc(400 * 1024, 'x');
    const entries: FixtureEntry[] = ['a', 'b', 'c'].map((name) => ({ type: 'File', path: `src-vul/${name}.bin`, content: chunk }));

    await expect(extract(tarGz(entries), { maxBytes: MiB })).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'archive refused: it unpacks to more than 1.0 MiB (ARCHIVE_MAX_BYTES)' }),
    );
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('refuses a bomb at its header in the writing pass alone (a tree with a copy has no header pass), and writes none of it, here or to the copy', async () => {
    const archive = join(scene.dir, 'archive.tar.gz');
    await writeZipBomb(archive, 'src-vul/big', GiB);
    await scene.noteOutside();
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxFileBytes: 8 * MiB };
    let copied = 0;
    const copy = new Writable({ write: (chunk: Buffer, _encoding, done) => ((copied += chunk.length), done()) });

    await expect(new ArchiveWriter().write(archive, scene.workspace, 'src-vul', { limits, signal: new AbortController().signal, copy })).rejects.toThrow(
      expect.objectContaining({
        code: 'ARCHIVE_TOO_LARGE',
        message: expect.stringMatching(/more than 8\.0 MiB, the limit of one file \(ARCHIVE_MAX_FILE_BYTES\)/),
      }),
    );
    expect(copied).toBe(0);
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('refuses files that together pass ARCHIVE_MAX_BYTES in the writing pass alone at the header that passes it, before its body', async () => {
    const archive = join(scene.dir, 'archive.tar.gz');
    const small = Buffer.alloc(400 * 1024, 'x');
    await writeFile(
      archive,
      tarGz([
        { type: 'File', path: 'src-vul/a.bin', content: small },
        { type: 'File', path: 'src-vul/b.bin', content: small },
        { type: 'File', path: 'src-vul/c.bin', content: randomBytes(4 * MiB) },
      ]),
    );
    await scene.noteOutside();
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, maxBytes: MiB };
    const got: Buffer[] = [];
    const copy = new Writable({ write: (chunk: Buffer, _encoding, done) => (got.push(chunk), done()) });

    await expect(new ArchiveWriter().write(archive, scene.workspace, 'src-vul', { limits, signal: new AbortController().signal, copy })).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'archive refused: it unpacks to more than 1.0 MiB (ARCHIVE_MAX_BYTES)' }),
    );
    const copied: string[] = [];
    new Parser({ onReadEntry: (entry) => (copied.push(entry.path), entry.resume()) }).write(Buffer.concat(got));
    expect(copied).not.toContain('src-vul/c.bin');
  });

  it('reports a host without GNU tar as EXTRACTION_FAILED, not as a broken archive, and leaves no src-vul/', async () => {
    const path = process.env['PATH'];
    process.env['PATH'] = scene.outside;
    try {
      await expect(extract(tarGz([{ type: 'File', path: 'src-vul/a.c', content: 'int a;\n' }]))).rejects.toThrow(
        expect.objectContaining({ code: 'EXTRACTION_FAILED', message: expect.stringMatching(/^GNU tar is needed to extract task archives: spawn tar ENOENT/) }),
      );
    } finally {
      process.env['PATH'] = path;
    }
    expect(await listTree(scene.workspace)).toEqual([]);
  });
});

describe('ArchiveExtractor with 200,000 entries', () => {
  const extractor = new ArchiveExtractor();
  let archiveDir: string;
  let scene: HostileScene;
  const archive = (): string => join(archiveDir, 'many.tar.gz');

  beforeAll(async () => {
    archiveDir = await mkdtemp(join(tmpdir(), 'many-entries-'));
    await writeTarGz(archive(), manyFiles('src-vul', 200_000));
  }, 30_000);

  afterAll(async () => {
    await rm(archiveDir, { recursive: true, force: true });
  });

  beforeEach(async () => {
    scene = await HostileScene.create(FAST_TMP);
    await scene.noteOutside();
  });

  afterEach(async () => {
    const [now, noted] = await scene.outsideNowAndNoted();
    expect(now).toEqual(noted);
    await scene.remove();
  }, 30_000);

  it('refuses them by ARCHIVE_MAX_ENTRIES when it is set lower, writing nothing', async () => {
    await expect(extractor.extract(archive(), scene.workspace, 'src-vul', { limits: { maxEntries: 10_000 } })).rejects.toThrow(
      expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'archive refused: it holds more than 10,000 entries (ARCHIVE_MAX_ENTRIES)' }),
    );
    expect(await listTree(scene.workspace)).toEqual([]);
  });

  it('extracts them at the default limits in a process that grows by less than 200 MB', async () => {
    const child = new ExtractionChild(['extract', archive(), scene.workspace]);
    const [line] = await child.output();
    const { rssBeforeMB, maxRssMB } = JSON.parse(line) as { seconds: number; rssBeforeMB: number; maxRssMB: number };

    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect((await readdir(join(scene.workspace, 'src-vul'))).length).toBe(200);
    expect((await readdir(join(scene.workspace, 'src-vul', 'd199'))).length).toBe(1000);
    // node-tar's own unpacker grew by 750 MB on these; ours by under 200 MB on a calm machine, 226 MB beside two CPU burners (the collector lags).
    expect(maxRssMB - rssBeforeMB).toBeLessThan(300);
  }, 90_000);
});

describe('ArchiveExtractor aborted mid-extraction', () => {
  const extractor = new ArchiveExtractor();
  let scene: HostileScene;
  let archive: string;

  beforeEach(async () => {
    scene = await HostileScene.create();
    archive = join(scene.dir, 'many.tar.gz');
    await writeTarGz(archive, manyFiles('src-vul', 20_000));
    await scene.noteOutside();
  });

  afterEach(async () => {
    const [now, noted] = await scene.outsideNowAndNoted();
    expect(now).toEqual(noted);
    await scene.remove();
  });

  it('stops at once when aborted while writing, and leaves no src-vul/ behind', async () => {
    const controller = new AbortController();
    const extraction = extractor.extract(archive, scene.workspace, 'src-vul', { signal: controller.signal });
    extraction.catch(() => undefined);
    while (!existsSync(join(scene.workspace, 'src-vul', 'd001'))) await new Promise((resolve) => setTimeout(resolve, 5));

    const abortedAt = Date.now();
    controller.abort();

    await expect(extraction).rejects.toThrow(expect.objectContaining({ code: 'EXTRACTION_ABORTED' }));
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(await listTree(scene.workspace)).toEqual([]);
    // Nothing still writes into it: tar is gone before the extraction rejects.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await listTree(scene.workspace)).toEqual([]);
  }, 30_000);

  it('refuses to start once aborted', async () => {
    const controller = new AbortController();
    controller.abort();

    await expect(extractor.extract(archive, scene.workspace, 'src-vul', { signal: controller.signal })).rejects.toThrow(
      expect.objectContaining({ code: 'EXTRACTION_ABORTED', message: 'extraction stopped: the green agent is shutting down' }),
    );
    expect(await listTree(scene.workspace)).toEqual([]);
  });
});
