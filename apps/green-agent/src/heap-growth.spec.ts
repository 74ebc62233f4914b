import { spawnSync } from 'node:child_process';
import { HEAP_GROWTH_FLAG } from './heap-growth';

/** Sets `flag` in a fresh Node, as the green agent does at boot, and returns what V8 said about it. */
function setInFreshNode(flag: string): { status: number | null; stderr: string } {
  const { status, stderr } = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], { encoding: 'utf8' });
  return { status, stderr };
}

describe('the heap growth the green agent fixes at boot', () => {
  it('is a flag the V8 of this Node knows (an unknown one is only complained of, and would change nothing)', () => {
    expect(setInFreshNode(HEAP_GROWTH_FLAG)).toEqual({ status: 0, stderr: '' });
  });

  it("is checked against V8's own list: a misspelt flag is named as unrecognized", () => {
    expect(setInFreshNode(HEAP_GROWTH_FLAG.replace('growing', 'grovving')).stderr).toContain('unrecognized flag --heap-grovving-percent');
  });
});
