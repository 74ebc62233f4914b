import { filesMatch, normalizeFilePath } from './file-match';

describe('normalizeFilePath', () => {
  it.each([
    ['/workspace/src-vul/tlvkit/src/index.c', 'tlvkit', 'index.c'],
    ['workspace/src-vul/tlvkit/src/index.c', 'tlvkit', 'index.c'],
    ['./src/index.c', null, 'index.c'],
    ['/src/tlvkit/src/index.c', 'tlvkit', 'index.c'],
    ['src-vul\\tlvkit\\lib\\index.c', 'tlvkit', 'lib/index.c'],
    ['/src/tlvkit/src/index.c', null, 'tlvkit/src/index.c'],
    ['tlvkitx/index.c', 'tlvkit', 'tlvkitx/index.c'],
    ['lib/src/index.c', 'tlvkit', 'lib/src/index.c'],
  ])('normalises %s (project %s) to %s', (path, project, expected) => {
    expect(normalizeFilePath(path, project)).toBe(expected);
  });
});

describe('filesMatch', () => {
  it('matches the same file named with workspace and project prefixes', () => {
    expect(filesMatch('/workspace/src-vul/tlvkit/src/index.c', 'src/index.c', 'tlvkit')).toBe(true);
    expect(filesMatch('/src/magick/coders/png.c', 'coders/png.c', 'magick')).toBe(true);
  });

  it('matches on the last components when one path carries an extra root', () => {
    expect(filesMatch('vendor/zlib/contrib/minizip/unzip.c', 'contrib/minizip/unzip.c')).toBe(true);
  });

  it('matches a bare base name, and (the original quirk) the same base name in another folder', () => {
    expect(filesMatch('render.c', 'magick/render.c')).toBe(true);
    expect(filesMatch('coders/render.c', 'magick/render.c')).toBe(true);
  });

  it('does not match different base names, or an empty path', () => {
    expect(filesMatch('src/index.h', 'src/index.c')).toBe(false);
    expect(filesMatch('src/Index.c', 'src/index.c')).toBe(false);
    expect(filesMatch('', 'src/index.c')).toBe(false);
  });
});
