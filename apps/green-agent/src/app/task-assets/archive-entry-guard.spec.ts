import { ArchiveEntryGuard, type ArchiveEntry } from './archive-entry-guard';

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

  it('refuses symbolic links that point outside, absolutely or by climbing', () => {
    const [absolute, climbing, toWorkspace] = verdicts([
      symlink('src-vul/etc', '/etc'),
      symlink('src-vul/p/up', '../../../outside'),
      symlink('src-vul/ws', '..'),
    ]);
    expect(absolute).toMatch(/-> "\/etc" points to an absolute path/);
    expect(climbing).toMatch(/points outside src-vul\//);
    expect(toWorkspace).toMatch(/points outside src-vul\//);
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
    expect(verdicts([file('src-vul/p/x'), symlink('src-vul/p', '.')])).toEqual(['extract', expect.stringMatching(/replaces an earlier entry/)]);
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

  it('skips devices and FIFOs rather than creating them', () => {
    expect(verdicts([{ path: 'src-vul/fifo', type: 'FIFO' }])).toEqual(['skip']);
  });
});
