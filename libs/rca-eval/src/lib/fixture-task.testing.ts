// A task built from a fixture of libs/rca-eval/fixtures: its vulnerable tree in `src-vul/<name>`, and its fix
// as git writes it (the vulnerable tree committed, the fix's files laid over it, `git diff`).
import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const FIXTURES = join(__dirname, '../../fixtures');

export interface FixtureTask {
  /** The task's `src-vul/`, holding the project as `<name>/`. */
  srcVul: string;
  /** The fix, a real `git diff`. */
  patch: string;
  remove(): Promise<void>;
}

/** `fixtures/<name>/vul` is the project as the fuzzer found it; `fixtures/<name>/fix` the files its fix changes or adds. */
export async function fixtureTask(name: string): Promise<FixtureTask> {
  const workspace = await mkdtemp(join(tmpdir(), `rca-eval-${name}-`));
  const srcVul = join(workspace, 'src-vul');
  await cp(join(FIXTURES, name, 'vul'), join(srcVul, name), { recursive: true });
  const repo = join(workspace, 'repo');
  await cp(join(FIXTURES, name, 'vul'), repo, { recursive: true });
  await git(repo, 'init', '--quiet');
  await git(repo, 'add', '--all');
  await git(repo, 'commit', '--quiet', '--message', 'the vulnerable tree');
  await cp(join(FIXTURES, name, 'fix'), repo, { recursive: true });
  await git(repo, 'add', '--all');
  const patch = await git(repo, 'diff', '--cached', '--no-color', '--no-ext-diff');
  return { srcVul, patch, remove: () => rm(workspace, { recursive: true, force: true }) };
}

/** Git without the user's or the system's configuration, so that the diff is git's default one. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  const identity = ['-c', 'user.name=fixture', '-c', 'user.email=fixture@example.invalid'];
  const { stdout } = await promisify(execFile)('git', [...identity, ...args], { cwd, env });
  return stdout;
}
