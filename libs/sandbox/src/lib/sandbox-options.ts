import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { SandboxError } from './sandbox-error';

export const SANDBOX_CHOICES = ['auto', 'docker', 'local', 'local-unsafe'] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];

/** Everything the sandboxes are configured with; `resolveSandboxOptions` fills the defaults. */
export interface SandboxOptions {
  /** One of SANDBOX_CHOICES (see `chooseSandbox`); checked where the backend is picked. */
  sandbox: string;
  /** Where task workspaces live; the reaper removes stale ones here. */
  tmpDir: string;
  /** Default in-sandbox limit of one command. */
  commandTimeoutS: number;
  /** How long `timeout` waits after TERM before KILL. */
  killAfterS: number;
  /** Extra time the host waits beyond the in-sandbox limit before giving up on the engine. */
  hostGraceS: number;
  /** Wall-clock limit of a task: the keep-alive of its container ends this long (plus a margin) after start. */
  taskTimeoutS: number;
  keepAliveMarginS: number;
  /** Output kept per command: head and tail halves. */
  maxOutputBytes: number;
  memoryBytes: number;
  pids: number;
  cpus: number;
  /**
   * A task container's CPU weight beside everything else on the machine (the engine's `CpuShares`; 1024
   * is the engine's own default, 2 its least). Low, a machine whose cores the tasks' commands keep busy
   * still runs the engine's starts and both agents first: the tasks take what those leave, shared evenly.
   */
  cpuShares: number;
  /** What one task's container may write (its workspace and every other write) before the task ends. */
  diskBytes: number;
  /**
   * How many files (inodes: files, folders, links) one task may make before it ends, counted by the same
   * watchdog: empty files take no bytes but each takes one of the host's inodes.
   */
  diskFiles: number;
  /** How often the disk watchdog looks at a container's writes, at most: closer to the limit, more often. */
  diskCheckIntervalS: number;
  /** How often a running green agent looks for dead owners' containers and task folders (boot reaps them too). */
  reapIntervalS: number;
  /**
   * The free inodes the host keeps where the tasks write (the engine's data root, or `tmpDir`): below it no
   * task starts and the running ones end. A share of the filesystem's inodes or a count; `{ inodes: 0 }`: none.
   */
  inodesFloor: InodesFloor;
  /**
   * What the running tasks may write in total (README, Sandbox guarantees): unset, the free disk where
   * they write, measured; 0, no bound. As many tasks run at once as it holds shares of `diskBytes`.
   */
  diskTotalBytes?: number;
  /** Host paths holding the assessor's private files: commands naming them are refused, and the local sandbox hides them. */
  privatePaths: string[];
  /** Folders inside the image whose `.git` directories are removed before the agent gets in (empty: keep them). */
  removeGitUnder: string[];
  pullTimeoutS: number;
  /** Largest file `readFile` returns. */
  readFileMaxBytes: number;
  /**
   * Containers created and started, or removed, at the same time: where the pacing starts. Each start
   * and removal runs the runtime several times, which is CPU work for the engine; paced, a burst of tasks
   * does not queue inside the engine or starve the green agent's event loop. Unless `startPacing` is
   * `fixed`, the gate then learns the engine's pace from how long its starts take (engine-gate.ts).
   */
  startConcurrency: number;
  /** `adaptive` (the default): the limit follows the engine; `fixed`: it stays at `startConcurrency` (set when SANDBOX_START_CONCURRENCY is given). */
  startPacing: 'adaptive' | 'fixed';
}

export type SandboxOptionsInput = Partial<SandboxOptions>;

/** A floor of free inodes: a percentage of the filesystem's, or a count. */
export type InodesFloor = { percent: number } | { inodes: number };

export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  sandbox: 'auto',
  tmpDir: '/tmp/rcabench',
  commandTimeoutS: 120,
  killAfterS: 5,
  hostGraceS: 10,
  taskTimeoutS: 3600,
  keepAliveMarginS: 300,
  maxOutputBytes: 100 * 1024,
  memoryBytes: 4 * 1024 ** 3,
  pids: 1024,
  cpus: defaultContainerCpus(),
  cpuShares: 2,
  diskBytes: 20 * 1024 ** 3,
  // An ARVO tree with its build holds 100k to 300k files: a million is far above any real task.
  diskFiles: 1_000_000,
  diskCheckIntervalS: 2,
  reapIntervalS: 30,
  // ext4 keeps 5% of its blocks for root, and none of its inodes: the same share, kept for the host.
  inodesFloor: { percent: 5 },
  privatePaths: [],
  removeGitUnder: ['/src'],
  pullTimeoutS: 1800,
  readFileMaxBytes: 8 * 1024 * 1024,
  startConcurrency: availableParallelism(),
  startPacing: 'adaptive',
};

const POSITIVE: (keyof SandboxOptions)[] = [
  'commandTimeoutS',
  'killAfterS',
  'hostGraceS',
  'taskTimeoutS',
  'keepAliveMarginS',
  'maxOutputBytes',
  'memoryBytes',
  'pids',
  'cpus',
  'cpuShares',
  'diskBytes',
  'diskFiles',
  'diskCheckIntervalS',
  'reapIntervalS',
  'pullTimeoutS',
  'readFileMaxBytes',
  'startConcurrency',
];

/** Defaults filled in and numbers checked; the backend name is checked where the backend is picked. */
export function resolveSandboxOptions(input: SandboxOptionsInput): SandboxOptions {
  const defined = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  const options: SandboxOptions = { ...DEFAULT_SANDBOX_OPTIONS, ...defined };
  const bad = POSITIVE.filter((key) => !(typeof options[key] === 'number' && Number.isFinite(options[key]) && (options[key] as number) > 0));
  const total = options.diskTotalBytes;
  if (total !== undefined && !(Number.isFinite(total) && total >= 0)) {
    throw new SandboxError('INVALID_OPTIONS', `invalid sandbox options: diskTotalBytes=${JSON.stringify(total)} (it must be 0, for no bound, or a byte count)`);
  }
  if (!validFloor(options.inodesFloor)) {
    throw new SandboxError(
      'INVALID_OPTIONS',
      `invalid sandbox options: inodesFloor=${JSON.stringify(options.inodesFloor)} (a percentage below 100, or a count)`,
    );
  }
  if (bad.length > 0) {
    throw new SandboxError(
      'INVALID_OPTIONS',
      `invalid sandbox options: ${bad.map((key) => `${key}=${JSON.stringify(options[key])}`).join(', ')} (each must be a positive number)`,
    );
  }
  return { ...options, tmpDir: resolve(options.tmpDir), privatePaths: options.privatePaths.map((path) => resolve(path)) };
}

/** `5%` (of the filesystem's inodes), `200000` (inodes), or `0` (no floor), as `HOST_INODES_FLOOR` is written. */
export function parseInodesFloor(text: string): InodesFloor {
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  const floor: InodesFloor | undefined = match ? (match[2] ? { percent: Number(match[1]) } : { inodes: Number(match[1]) }) : undefined;
  if (!floor || !validFloor(floor))
    throw new SandboxError('INVALID_OPTIONS', `the inodes' floor must be a percentage such as 5% or a count such as 200000, got ${JSON.stringify(text)}`);
  return floor;
}

function validFloor(floor: InodesFloor): boolean {
  if ('percent' in floor) return Number.isFinite(floor.percent) && floor.percent >= 0 && floor.percent < 100;
  return Number.isInteger(floor.inodes) && floor.inodes >= 0;
}

/** `4g`, `512m`, `1024k` or a plain byte count, as `CONTAINER_MEMORY` is written. */
export function parseMemory(text: string): number {
  const match = /^(\d+)([kmg]?)$/i.exec(text.trim());
  if (!match) throw new SandboxError('INVALID_OPTIONS', `memory must be a size such as 4g or 512m, got ${JSON.stringify(text)}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[match[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Number(match[1]) * unit;
}

/**
 * CPUs one task's container may use: half the machine's, between 1 and 2, so that on a small machine
 * one task's build leaves room for the assessor and the other tasks.
 */
export function defaultContainerCpus(cpus: number = availableParallelism()): number {
  return Math.min(2, Math.max(1, Math.floor(cpus / 2)));
}
