import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileReadError, readRegularFile } from './regular-file';
import { scratchFolder } from '../testing/scratch-folder.testing';

const MAX = 4 * 1024 * 1024;
const GiB = 1024 ** 3;
// More than libuv's four file-I/O threads: one held read each would leave none for anyone else.
const MORE_THAN_THE_POOL = 8;

describe('reading a file someone else controls', () => {
  const dir = scratchFolder('arvo-rca-regular-');
  let tree: string;

  beforeEach(() => {
    tree = join(dir(), 'tree');
    mkdirSync(tree);
    writeFileSync(join(tree, 'a.c'), 'int main(void) { return 0; }\n');
  });

  it('reads a regular file inside the folder it must lie in', async () => {
    expect((await readRegularFile(join(tree, 'a.c'), { maxBytes: MAX, within: tree })).toString()).toBe('int main(void) { return 0; }\n');
  });

  it('refuses a FIFO at once, however many, and leaves every file-I/O thread free', async () => {
    const fifos = Array.from({ length: MORE_THAN_THE_POOL }, (_, index) => join(tree, `pipe${index}`));
    for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
    const refused = await Promise.all(fifos.map((fifo) => readRegularFile(fifo, { maxBytes: MAX }).catch((error: unknown) => error)));
    expect(refused.map((error) => (error as FileReadError).code)).toEqual(fifos.map(() => 'FILE_NOT_REGULAR'));
    expect((refused[0] as Error).message).toMatch(/it is a FIFO, not a regular file/);

    const started = performance.now();
    await readFile(join(tree, 'a.c'));
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('refuses a 1.5 GiB sparse file from its size, reading none of it', async () => {
    const sparse = join(tree, 'huge.c');
    writeFileSync(sparse, '');
    truncateSync(sparse, 1.5 * GiB);
    const rssBefore = process.memoryUsage().rss;
    await expect(readRegularFile(sparse, { maxBytes: MAX })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(64 * 1024 * 1024);
  });

  it('never follows a symbolic link in the last component, inside the folder or out of it', async () => {
    symlinkSync('/etc/shadow', join(tree, 'shadow.c'));
    symlinkSync('a.c', join(tree, 'alias.c'));
    await expect(readRegularFile(join(tree, 'shadow.c'), { maxBytes: MAX })).rejects.toMatchObject({
      code: 'FILE_NOT_REGULAR',
      message: expect.stringMatching(/symbolic link/),
    });
    await expect(readRegularFile(join(tree, 'alias.c'), { maxBytes: MAX })).rejects.toMatchObject({ code: 'FILE_NOT_REGULAR' });
  });

  it('refuses a file that a linked folder leads out of the folder it must lie in', async () => {
    writeFileSync(join(dir(), 'secret.c'), 'the fix\n');
    symlinkSync(dir(), join(tree, 'up'));
    await expect(readRegularFile(join(tree, 'up', 'secret.c'), { maxBytes: MAX, within: tree })).rejects.toMatchObject({
      code: 'FILE_NOT_READABLE',
      message: expect.stringMatching(/leads out of/),
    });
  });

  it('refuses a device, a folder and a missing file, each saying why', async () => {
    await expect(readRegularFile('/dev/zero', { maxBytes: MAX })).rejects.toMatchObject({
      code: 'FILE_NOT_REGULAR',
      message: expect.stringMatching(/a device/),
    });
    await expect(readRegularFile(tree, { maxBytes: MAX })).rejects.toMatchObject({ code: 'FILE_NOT_REGULAR', message: expect.stringMatching(/a folder/) });
    await expect(readRegularFile(join(tree, 'gone.c'), { maxBytes: MAX })).rejects.toMatchObject({
      code: 'FILE_NOT_READABLE',
      message: expect.stringMatching(/ENOENT/),
    });
  });

  it('reads no more than one byte past the bound, so a file at the bound is read and one past it is not', async () => {
    writeFileSync(join(tree, 'ten.c'), '0123456789');
    expect((await readRegularFile(join(tree, 'ten.c'), { maxBytes: 10 })).toString()).toBe('0123456789');
    await expect(readRegularFile(join(tree, 'ten.c'), { maxBytes: 9 })).rejects.toBeInstanceOf(FileReadError);
  });
});
