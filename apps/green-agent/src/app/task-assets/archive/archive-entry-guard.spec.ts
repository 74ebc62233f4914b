import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ArchiveEntryGuard, type ArchiveEntry } from './archive-entry-guard';

/** The heap in use after a full collection. */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

function verdicts(entries: ArchiveEntry[]): string[] {
  const guard = new ArchiveEntryGuard('src-vul');
  return entries.map((entry) => {
    const verdict = guard.check(entry);
    return verdict.action === 'refuse' ? `refuse: ${verdict.reason}` : verdict.action;
  });
}

const dir = (path: string): ArchiveEntry => ({ path, type: 'Directory' });
const file = (path: string): ArchiveEntry => ({ path, type: 'File' });
const symlink = (path: string, linkpath: string): ArchiveEntry => ({ path, type: 'SymbolicLink', linkpath });
const hardlink = (path: string, linkpath: string): ArchiveEntry => ({ path, type: 'Link', linkpath });

describe('ArchiveEntryGuard', () => {
  it('lets a source tree with inner links through, and skips the archive root', () => {
    expect(
      verdicts([
        dir('./'),
        dir('src-vul/'),
        file('./src-vul/p/a.c'),
        symlink('src-vul/p/inc', '../p/include'),
        symlink('src-vul/top', '.'),
        hardlink('src-vul/p/b.c', 'src-vul/p/a.c'),
      ]),
    ).toEqual(['skip', 'extract', 'extract', 'extract', 'extract', 'extract']);
  });

  it('keeps a backslash as part of a name, as Linux does: systemd names unit files `system-systemd\\x2dcryptsetup.slice`', () => {
    const guard = new ArchiveEntryGuard('src-vul');
    const unit = 'src-vul/units/system-systemd\\x2dcryptsetup.slice';

    expect(guard.check(dir('src-vul/units/'))).toEqual({ action: 'extract', path: 'src-vul/units' });
    expect(guard.check(file(unit))).toEqual({ action: 'extract', path: unit });
    expect(guard.check(symlink('src-vul/units/crypt\\x2d.slice', 'system-systemd\\x2dcryptsetup.slice'))).toEqual({
      action: 'extract',
      path: 'src-vul/units/crypt\\x2d.slice',
      linkpath: 'system-systemd\\x2dcryptsetup.slice',
    });
    expect(guard.check(hardlink('src-vul/units/copy.slice', unit))).toEqual({ action: 'extract', path: 'src-vul/units/copy.slice', linkpath: unit });
  });

  it('refuses absolute paths, .. segments and entries outside src-vul/', () => {
    const [absolute, dotdot, backslashes, outside, drive] = verdicts([
      file('/etc/passwd'),
      file('src-vul/../../x'),
      file('src-vul\\..\\..\\x'),
      file('shared/loc.json'),
      file('C:/x'),
    ]);
    expect(absolute).toMatch(/"\/etc\/passwd" has an absolute path/);
    expect(dotdot).toMatch(/contains '\.\.'/);
    expect(backslashes).toMatch(/contains '\.\.'/);
    expect(outside).toMatch(/"shared\/loc.json" is outside src-vul\//);
    expect(drive).toMatch(/absolute path/);
  });

  it('refuses symbolic links that climb out of the tree, to its parent included', () => {
    const [climbing, toWorkspace, backslashes] = verdicts([
      symlink('src-vul/p/up', '../../../outside'),
      symlink('src-vul/ws', '..'),
      symlink('src-vul/bs', '..\\..'),
    ]);
    expect(climbing).toMatch(/points outside src-vul\//);
    expect(toWorkspace).toMatch(/points outside src-vul\//);
    expect(backslashes).toMatch(/points outside src-vul\//);
  });

  it('keeps absolute symbolic links, as autotools trees carry them, but lets nothing through them', () => {
    expect(
      verdicts([
        symlink('src-vul/p/config.guess', '/usr/share/misc/config.guess'),
        symlink('src-vul/etc', '/etc'),
        file('src-vul/etc/passwd'),
        dir('src-vul/etc/cron.d/'),
        hardlink('src-vul/shadow', 'src-vul/etc/shadow'),
        symlink('src-vul/passwd', 'etc/passwd'),
        symlink('src-vul/up', 'etc/..'),
      ]),
    ).toEqual([
      'extract',
      'extract',
      expect.stringMatching(/"src-vul\/etc\/passwd" lies behind a link that leaves src-vul\//),
      expect.stringMatching(/"src-vul\/etc\/cron.d\/" lies behind a link that leaves src-vul\//),
      expect.stringMatching(/hard link "src-vul\/shadow" -> "src-vul\/etc\/shadow" points outside src-vul\//),
      expect.stringMatching(/symbolic link "src-vul\/passwd" -> "etc\/passwd" points outside src-vul\//),
      expect.stringMatching(/points outside src-vul\//),
    ]);
  });

  it('wants src-vul itself to be a folder, never a link or a file', () => {
    expect(verdicts([symlink('src-vul', '/')])).toEqual([expect.stringMatching(/entry "src-vul" must be a folder/)]);
    expect(verdicts([file('src-vul')])).toEqual([expect.stringMatching(/must be a folder/)]);
    expect(verdicts([symlink('./src-vul/', 'elsewhere')])).toEqual([expect.stringMatching(/must be a folder/)]);
  });

  it('follows earlier links, so a chain that looks inside but climbs out is refused', () => {
    // a/b/l leads to src-vul itself; through it, a/b/l/../.. is two levels above src-vul, though lexically inside.
    expect(verdicts([symlink('src-vul/a/b/l', '../..'), symlink('src-vul/e', 'a/b/l/../..')])).toEqual([
      'extract',
      expect.stringMatching(/refuse: symbolic link "src-vul\/e" -> "a\/b\/l\/..\/.." points outside/),
    ]);
  });

  it('refuses entries written through, or replacing, a link', () => {
    expect(verdicts([symlink('src-vul/l', 'p'), file('src-vul/l')])).toEqual(['extract', expect.stringMatching(/replaces a symbolic link/)]);
    expect(verdicts([file('src-vul/x'), symlink('src-vul/x', '.')])).toEqual(['extract', expect.stringMatching(/replaces an earlier entry/)]);
    expect(verdicts([file('src-vul/p/x'), symlink('src-vul/p', '.')])).toEqual(['extract', expect.stringMatching(/"src-vul\/p" replaces a folder/)]);
    expect(verdicts([file('src-vul/p'), file('src-vul/p/x')])).toEqual(['extract', expect.stringMatching(/"src-vul\/p\/x" lies inside a file/)]);
  });

  it('names the place an entry behind an inner link lands, so that it is written there and not through the link', () => {
    const guard = new ArchiveEntryGuard('src-vul');
    guard.check(dir('src-vul/p/include/'));
    guard.check(symlink('src-vul/inc', 'p/include'));

    expect(guard.check(file('./src-vul/inc//x.h'))).toEqual({ action: 'extract', path: 'src-vul/p/include/x.h' });
    expect(guard.check(hardlink('src-vul/y.h', 'src-vul/inc/x.h'))).toEqual({ action: 'extract', path: 'src-vul/y.h', linkpath: 'src-vul/p/include/x.h' });
  });

  it('refuses hard links to anything but a file extracted before them', () => {
    const [, missing, folder] = verdicts([dir('src-vul/p/'), hardlink('src-vul/h1', 'src-vul/missing.c'), hardlink('src-vul/h2', 'src-vul/p')]);
    expect(missing).toMatch(/hard link "src-vul\/h1" -> "src-vul\/missing.c" names no file extracted before it/);
    expect(folder).toMatch(/names no file extracted before it/);
  });

  it('refuses paths and names longer than a file system allows', () => {
    const [longName, longPath, longTarget] = verdicts([
      file(`src-vul/${'n'.repeat(256)}`),
      file(`src-vul/${'d/'.repeat(2048)}x`),
      symlink('src-vul/l', 'x/'.repeat(2048)),
    ]);
    expect(longName).toMatch(/has a path longer than a file system allows/);
    expect(longPath).toMatch(/has a path longer than a file system allows/);
    expect(longTarget).toMatch(/has a target longer than a file system allows/);
  });

  it('counts the paths entries create, the folders they imply included', () => {
    const guard = new ArchiveEntryGuard('src-vul');
    for (const entry of [file('src-vul/a/b/c.c'), file('src-vul/a/b/d.c'), dir('src-vul/a/'), { path: 'src-vul/fifo', type: 'FIFO' }]) guard.check(entry);

    expect(guard.paths).toBe(5);
  });

  it('refuses hard links to files outside the tree', () => {
    const [absolute, climbing, outside] = verdicts([
      hardlink('src-vul/h1', '/etc/shadow'),
      hardlink('src-vul/h2', 'src-vul/../../x'),
      hardlink('src-vul/h3', 'other/file'),
    ]);
    expect(absolute).toMatch(/hard link .* points to an absolute path/);
    expect(climbing).toMatch(/hard link .* points outside/);
    expect(outside).toMatch(/hard link .* points outside/);
  });

  it('refuses link loops instead of following them forever', () => {
    expect(verdicts([symlink('src-vul/a', 'b'), symlink('src-vul/b', 'a'), file('src-vul/a/x')])).toEqual([
      'extract',
      'extract',
      expect.stringMatching(/lies behind a link/),
    ]);
  });

  it('keeps no copy of long paths: 20,000 files below a 3,800-byte folder path cost a few MB', () => {
    const folder = `src-vul/${Array.from({ length: 15 }, (_, level) => String(level).padEnd(250, 'x')).join('/')}`;
    const guard = new ArchiveEntryGuard('src-vul');
    const before = heapAfterGc();

    let extracted = 0;
    for (let i = 0; i < 20_000; i++) if (guard.check(file(`${folder}/file-${i}-with-a-long-name.c`)).action === 'extract') extracted += 1;

    expect([extracted, guard.paths]).toEqual([20_000, 20_016]);
    // Kept whole, the paths alone would take 76 MB.
    expect((heapAfterGc() - before) / 1024 ** 2).toBeLessThan(8);
  });

  it('skips devices and FIFOs rather than creating them', () => {
    expect(verdicts([{ path: 'src-vul/fifo', type: 'FIFO' }])).toEqual(['skip']);
  });
});
