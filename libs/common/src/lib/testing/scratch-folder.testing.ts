// The temporary folder a suite works in, made and removed by Jest's hooks so that no spec writes them again.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CodedError } from '../../index';

export class ScratchFolderError extends CodedError<'SCRATCH_FOLDER_OUTSIDE_TEST'> {}

/**
 * A new folder `<tmp>/<prefix>XXXXXX` before each test (or, with `all`, once before the suite's tests), removed
 * after it whether it passed or not. Call it in a describe block before the hooks that use the folder; the
 * answer is the folder's path, to be read inside tests and hooks.
 */
export function scratchFolder(prefix: string, scope: 'each' | 'all' = 'each'): () => string {
  let path: string | undefined;
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    path = await mkdtemp(join(tmpdir(), prefix));
  });
  (scope === 'each' ? afterEach : afterAll)(async () => {
    if (path !== undefined) await rm(path, { recursive: true, force: true });
    path = undefined;
  });
  return () => {
    if (path === undefined) throw new ScratchFolderError('SCRATCH_FOLDER_OUTSIDE_TEST', `the scratch folder ${prefix}… is there only inside a test or a hook`);
    return path;
  };
}
