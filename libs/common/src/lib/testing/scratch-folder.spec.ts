import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchFolder, ScratchFolderError } from './scratch-folder.testing';

describe('a scratch folder for each test', () => {
  const folder = scratchFolder('scratch-each-');
  const seen: string[] = [];

  it('is there and empty inside a test', () => {
    expect(readdirSync(folder())).toEqual([]);
    writeFileSync(join(folder(), 'left.txt'), 'behind');
    seen.push(folder());
  });

  it('is a new one in the next test, the last one gone with what it held', () => {
    expect(folder()).not.toBe(seen[0]);
    expect(existsSync(seen[0])).toBe(false);
  });
});

describe('a scratch folder for the suite', () => {
  const folder = scratchFolder('scratch-all-', 'all');
  const outside = ((): unknown => {
    try {
      return folder();
    } catch (error) {
      return error;
    }
  })();
  let first: string;

  it('is the same folder in every test', () => {
    first = folder();
    writeFileSync(join(first, 'kept.txt'), 'kept');
  });

  it('keeps what an earlier test wrote', () => {
    expect(folder()).toBe(first);
    expect(readdirSync(folder())).toEqual(['kept.txt']);
  });

  it('is refused, by name, where no test runs', () => {
    expect(outside).toBeInstanceOf(ScratchFolderError);
    expect((outside as ScratchFolderError).code).toBe('SCRATCH_FOLDER_OUTSIDE_TEST');
  });
});
