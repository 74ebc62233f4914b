import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SourceTree } from './source-tree';

describe('SourceTree', () => {
  let root: string;
  let tree: SourceTree;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'source-tree-'));
    await mkdir(join(root, 'src-vul', 'proj', 'src'), { recursive: true });
    await mkdir(join(root, 'outside'));
    await writeFile(join(root, 'src-vul', 'proj', 'src', 'a.c'), 'int a(void) { return 0; }\n');
    await writeFile(join(root, 'outside', 'secret.c'), 'int secret(void) { return 42; }\n');
    tree = new SourceTree(join(root, 'src-vul'));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds a file the fix names below the project folder', async () => {
    expect(await tree.locate('src/a.c')).toEqual({ absolute: await realpath(join(root, 'src-vul', 'proj', 'src', 'a.c')), path: 'src/a.c', project: 'proj' });
  });

  it('never reads through a link that leaves the tree, absolute or climbing', async () => {
    await symlink(join(root, 'outside', 'secret.c'), join(root, 'src-vul', 'proj', 'config.c'));
    await symlink('../../outside/secret.c', join(root, 'src-vul', 'proj', 'up.c'));
    await symlink(join(root, 'outside'), join(root, 'src-vul', 'proj', 'lib'));

    expect(await tree.locate('config.c')).toBeNull();
    expect(await tree.locate('up.c')).toBeNull();
    expect(await tree.locate('lib/secret.c')).toBeNull();
  });

  it('reads a link inside the tree as the file it names', async () => {
    await symlink('src/a.c', join(root, 'src-vul', 'proj', 'inner.c'));

    expect(await tree.locate('inner.c')).toEqual({ absolute: await realpath(join(root, 'src-vul', 'proj', 'src', 'a.c')), path: 'inner.c', project: 'proj' });
  });
});
