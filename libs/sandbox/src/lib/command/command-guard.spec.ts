import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { scratchFolder } from '@arvo-rca/common/testing';
import { CommandGuard } from './command-guard';

describe('CommandGuard', () => {
  const root = scratchFolder('guard-', 'all');

  it('runs ordinary commands unchanged: there is no allowlist', () => {
    const guard = new CommandGuard(join(root(), 'ws'), [join(root(), 'cache')]);

    expect(guard.check('python3 -c "import os; os.system(\'rm -rf /\')"')).toEqual({
      kind: 'run',
      command: 'python3 -c "import os; os.system(\'rm -rf /\')"',
    });
  });

  it('rewrites host paths of the workspace to /workspace', () => {
    const ws = join(root(), 'arvo_1-abc', 'workspace');
    const guard = new CommandGuard(ws, []);

    expect(guard.check(`cat ${ws}/1_error.txt && ls ${ws}`)).toEqual({ kind: 'run', command: 'cat /workspace/1_error.txt && ls /workspace' });
    expect(guard.check(`ls ${ws}2 ${ws}.bak`)).toEqual({ kind: 'run', command: `ls ${ws}2 ${ws}.bak` });
  });

  it('rewrites the workspace when it is named through a symbolic link', async () => {
    const real = join(root(), 'real-ws');
    const link = join(root(), 'link-ws');
    await mkdir(real);
    await symlink(real, link);
    const guard = new CommandGuard(link, []);

    expect(guard.check(`cat ${real}/x ${link}/y`)).toEqual({ kind: 'run', command: 'cat /workspace/x /workspace/y' });
  });

  it('refuses commands naming a private path, with the reason', () => {
    const cache = join(root(), 'cache');
    const guard = new CommandGuard(join(root(), 'ws'), [`${cache}/`]);

    expect(guard.check(`cat ${cache}/arvo/1/patch.diff`)).toEqual({
      kind: 'rejected',
      reason: `the command refers to ${cache}, which holds the assessor's private files`,
    });
  });
});
