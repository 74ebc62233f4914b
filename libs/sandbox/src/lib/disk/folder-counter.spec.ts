import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessTable } from '@arvo-rca/common';
import { countFolder } from './file-count';
import { FolderCounter } from './folder-counter';

function folderWith(root: string, name: string, files: number): string {
  const folder = join(root, name);
  mkdirSync(join(folder, 'nested', 'deeper'), { recursive: true });
  for (let index = 0; index < files; index++) writeFileSync(join(folder, index % 2 ? 'nested' : 'nested/deeper', `file-${index}`), 'x');
  return folder;
}

describe('the folder counter', () => {
  let root: string;
  let counter: FolderCounter;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'folder-counter-'));
    counter = new FolderCounter();
  });

  afterEach(() => {
    counter.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('counts what a folder holds as countFolder does', async () => {
    const folder = folderWith(root, 'task', 37);

    expect((await counter.count(folder)).files).toBe((await countFolder(folder)).files);
    expect((await counter.count(folder)).files).toBe(40); // The folder, two subfolders, 37 files.
  });

  it("sums a folder's bytes as the engine's SizeRw sums a layer's: no folder, a file of two links once, a link's target's name", async () => {
    const folder = join(root, 'layer');
    mkdirSync(join(folder, 'deeper'), { recursive: true });
    writeFileSync(join(folder, 'a'), Buffer.alloc(5000, 1));
    writeFileSync(join(folder, 'deeper', 'b'), Buffer.alloc(123, 1));
    writeFileSync(join(folder, 'empty'), '');
    linkSync(join(folder, 'a'), join(folder, 'deeper', 'a-again'));
    symlinkSync('deeper/b', join(folder, 'to-b'));

    // The folder, deeper, a, b, empty, a-again, to-b; 5000 + 123 + the 8 of `deeper/b`.
    expect(await counter.count(folder)).toEqual({ files: 7, bytes: 5_131 });
  });

  it('answers many counts asked at once, each with its own folder, through one thread, and starts no process', async () => {
    const folders = Array.from({ length: 20 }, (_, index) => folderWith(root, `task-${index}`, index));
    const children = new ProcessTable().childrenOf(process.pid);
    const asked = folders.map((folder) => counter.count(folder));
    const thread = counter.threadId;

    expect((await Promise.all(asked)).map((use) => use.files)).toEqual(folders.map((_, index) => index + 3));
    expect(counter.messagesSent).toBe(1);
    expect((await counter.count(folders[5])).files).toBe(8);
    expect(counter.messagesSent).toBe(2);
    expect(counter.threadId).toBe(thread);
    expect(new ProcessTable().childrenOf(process.pid)).toEqual(children);
  });

  it('fails a folder it cannot walk, saying why, and counts the next one', async () => {
    await expect(counter.count(join(root, 'missing'))).rejects.toMatchObject({
      code: 'FOLDER_COUNT_FAILED',
      message: expect.stringMatching(/^counting .*missing failed: ENOENT: no such file or directory/),
    });
    expect((await counter.count(folderWith(root, 'there', 1))).files).toBe(4);
  });

  it('counts a folder whose name holds a newline', async () => {
    expect((await counter.count(folderWith(root, 'a\nb', 1))).files).toBe(4);
  });

  it('ends its thread once closed, after the counts it owes, and starts another at the next count', async () => {
    const folder = folderWith(root, 'task', 2);
    await counter.count(folder);
    const owed = counter.count(folder);
    const first = counter.threadId;
    counter.close();

    expect((await owed).files).toBe(5);
    expect(counter.threadId).toBeUndefined();
    expect((await counter.count(folder)).files).toBe(5);
    expect(counter.threadId).not.toBe(first);
  });
});
