import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

// Creating 200,000 files costs up to a millisecond each on some disks: the large cases write to memory
// where they can, since what they measure is the agent's time and memory, not the disk's.
export const FAST_TMP = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();

/** Every path under `root` but those under `skip`, with what a change would alter: type, mode, size and mtime. */
export async function snapshot(root: string, skip?: string): Promise<string[]> {
  const rows: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const name of await readdir(dir)) {
      const path = join(dir, name);
      if (path === skip) continue;
      const info = await lstat(path);
      rows.push(`${relative(root, path)} ${info.mode.toString(8)} ${info.size} ${info.mtimeMs}`);
      if (info.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return rows.sort();
}

/** Every path under `root`, sorted; none when it does not exist. */
export async function listTree(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true }).catch(() => [])).sort();
}

/**
 * A scratch folder for one hostile-archive case: a workspace to extract into (`<dir>/task/workspace`) and,
 * beside it, `outside/` with files an archive would like to reach. The case notes the state outside the
 * workspace before extracting, and checks afterwards that nothing there changed.
 */
export class HostileScene {
  readonly workspace: string;
  readonly outside: string;
  private noted: string[] = [];

  private constructor(readonly dir: string) {
    this.workspace = join(dir, 'task', 'workspace');
    this.outside = join(dir, 'outside');
  }

  static async create(base = tmpdir()): Promise<HostileScene> {
    const scene = new HostileScene(await mkdtemp(join(base, 'hostile-archive-')));
    await mkdir(scene.workspace, { recursive: true });
    await mkdir(join(scene.outside, 'bin'), { recursive: true });
    await writeFile(join(scene.outside, 'secret.txt'), 'do not touch\n');
    return scene;
  }

  async noteOutside(): Promise<void> {
    this.noted = await snapshot(this.dir, this.workspace);
  }

  /** The state outside the workspace now and when noted: equal when nothing there changed. */
  async outsideNowAndNoted(): Promise<[string[], string[]]> {
    return [await snapshot(this.dir, this.workspace), this.noted];
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
