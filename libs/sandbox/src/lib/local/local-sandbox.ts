import { randomUUID } from 'node:crypto';
import { Stats } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { FileReadError, readRegularFile, WORKSPACE, type ProcessTable } from '@arvo-rca/common';
import { SANDBOX_PATH } from './bubblewrap';
import { CommandGuard } from '../command/command-guard';
import type { DiskShare, DiskShares } from '../disk/disk-shares';
import { DiskWatchdog } from '../disk/disk-watchdog';
import { countFolder } from '../disk/file-count';
import type { InodeFloor } from '../disk/inode-floor';
import { containerName } from '../sandbox-name';
import { commandOutcome, EXEC_MARKER, NON_INTERACTIVE_ENV, shellCommandArgv } from '../command/exec-command';
import { LocalCommand, type LocalIsolation } from './local-command';
import { HeadTailCap } from '../command/output-cap';
import type { ExecOptions, ExecOutcome, Sandbox, SandboxSpec } from '../sandbox';
import { SandboxError } from '../sandbox-error';
import type { SandboxOptions } from '../sandbox-options';

export type { LocalIsolation } from './local-command';

export const NO_ISOLATION_WARNING =
  "WARNING: NOTHING IS ISOLATED (SANDBOX=local-unsafe). The solver's commands run as plain processes on this host, with its " +
  'network and every file this user can read. Use it only with solvers you trust; to isolate them, install bubblewrap ' +
  '(apt-get install bubblewrap) or Docker (apt-get install docker.io) and use SANDBOX=local, docker or auto.';

export interface LocalSandboxContext {
  isolation: LocalIsolation;
  options: SandboxOptions;
  processes: ProcessTable;
  /** Host paths the sandbox must not show (private files, other tasks' workspaces). */
  hidden: readonly string[];
  /** How many tasks run at once by the disk (one share each); none when nothing bounds it. */
  diskShares?: DiskShares;
  /** The host's free inodes where the workspaces are: no start below it, and the watchdog ends a task once they fall below. */
  inodeFloor?: InodeFloor;
  onStopped?: (sandbox: Sandbox) => void;
}

/**
 * A task's sandbox without a container engine: each command runs with bash in the workspace, inside a
 * bubblewrap sandbox of its own (see bubblewrap.ts), or as plain processes where the user opted into
 * that (SANDBOX=local-unsafe), with `/workspace` in commands mapped to the host folder.
 */
export class LocalSandbox implements Sandbox {
  readonly kind = 'local' as const;
  readonly name: string;
  private readonly guard: CommandGuard;
  private readonly running = new Set<LocalCommand>();
  private started = false;
  private stopped = false;
  /** Aborted by `stop`: a start waiting for its disk share gives up at once. */
  private readonly stopping = new AbortController();
  private diskShare: DiskShare | undefined;
  private watchdog: DiskWatchdog | undefined;

  constructor(
    private readonly context: LocalSandboxContext,
    private readonly spec: SandboxSpec,
  ) {
    this.name = containerName(spec.task);
    this.guard = new CommandGuard(spec.workspaceDir, context.options.privatePaths);
  }

  async start(): Promise<void> {
    if (this.started || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} was already started`);
    // The workspace is read in place: its tree's stream has no use here, and its writer must not wait on it.
    this.spec.pendingWorkspace?.tree?.tar.resume();
    await this.spec.pendingWorkspace?.ready;
    const info = await stat(this.spec.workspaceDir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SandboxError('WORKSPACE_MISSING', `workspace ${this.spec.workspaceDir} of ${this.spec.task} is not a directory`);
    }
    await this.context.inodeFloor?.refuseBelow();
    // Made ahead, it takes its share at its turn (takeTurn).
    if (this.spec.waitS === undefined) await this.holdDiskShare();
    if (this.context.isolation === 'process') this.spec.onProgress?.(`${this.name}: ${NO_ISOLATION_WARNING}`);
    this.started = true;
    this.watchDisk();
  }

  async takeTurn(): Promise<void> {
    this.checkRunning();
    if (this.spec.waitS !== undefined && !this.diskShare) await this.holdDiskShare();
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecOutcome> {
    const verdict = this.guard.check(command);
    if (verdict.kind === 'rejected') return verdict;
    this.checkRunning();
    const timeoutS = options.timeoutS ?? this.context.options.commandTimeoutS;
    const { killAfterS, hostGraceS, maxOutputBytes } = this.context.options;
    const marker = randomUUID();
    const cap = new HeadTailCap(maxOutputBytes);
    const inner = this.context.isolation === 'bwrap' ? verdict.command : this.toHostPaths(verdict.command);
    // The host's login profile is not the task's environment: a plain `bash -c`.
    const argv = shellCommandArgv({ shell: ['bash', '-c'], command: inner, timeoutS, killAfterS, useTimeout: true });
    const running = new LocalCommand({
      isolation: this.context.isolation,
      argv,
      workspaceDir: this.spec.workspaceDir,
      hidden: this.context.hidden,
      env: this.commandEnv(marker),
      cap,
    });
    this.running.add(running);
    try {
      const run = await running.finished((timeoutS + killAfterS + hostGraceS) * 1000);
      const outcome = commandOutcome(run, cap.finish(), timeoutS);
      if (outcome.kind === 'ran' && outcome.timedOut) await this.killCommand(running, marker);
      return outcome;
    } finally {
      this.running.delete(running);
    }
  }

  async readFile(path: string): Promise<Buffer> {
    this.checkRunning();
    const inside = relative(WORKSPACE, this.guard.toSandboxPath(path));
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${this.name}: the local sandbox reads only under ${WORKSPACE}`);
    }
    // The solver writes this folder: links are resolved here and the result must stay in it, and what is
    // there is read only when it is a regular file (a FIFO would hold a file-I/O thread for good).
    const root = await realpath(this.spec.workspaceDir);
    const entry = await lstat(join(root, inside)).catch((error: NodeJS.ErrnoException) => error);
    const target = await realpath(join(root, inside)).catch((error: NodeJS.ErrnoException) => {
      throw unresolved(path, this.name, entry, error);
    });
    if (relative(root, target).startsWith('..')) {
      const what = entry instanceof Stats && entry.isSymbolicLink() ? 'it is a symbolic link that leads' : 'it leads';
      throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${this.name}: ${what} out of the workspace`);
    }
    return readRegularFile(target, { maxBytes: this.context.options.readFileMaxBytes, within: root }).catch((error: unknown) => {
      if (!(error instanceof FileReadError)) throw error;
      throw new SandboxError(error.code, `${error.message} (in ${this.name})`, { cause: error });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    this.watchdog?.stop();
    await Promise.all([...this.running].map((running) => running.kill()));
    this.running.clear();
    this.diskShare?.release();
    this.diskShare = undefined;
    this.context.onStopped?.(this);
  }

  // The workspace is all a task writes to this host's disk (bubblewrap's /tmp is memory): its bytes and
  // files, counted from the host, are held to the task's limits as a container's are.
  private watchDisk(): void {
    const onDiskLimit = this.spec.onDiskLimit;
    if (!onDiskLimit) return;
    const { diskBytes, diskFiles, diskCheckIntervalS } = this.context.options;
    const meter = async (): Promise<{ bytes: number; files: number }> => {
      const { files, bytes } = await countFolder(this.spec.workspaceDir, { bytes: true });
      return { files, bytes: bytes ?? 0 };
    };
    const bounds = {
      bytes: diskBytes,
      files: diskFiles,
      intervalMs: diskCheckIntervalS * 1000,
      subject: "the task's workspace",
      floor: this.context.inodeFloor,
    };
    this.watchdog = new DiskWatchdog(meter, bounds, onDiskLimit);
    this.watchdog.start();
  }

  private checkRunning(): void {
    if (!this.started || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} is not running`);
  }

  private toHostPaths(command: string): string {
    return command.replace(/(?<![\w.-])\/workspace(?=$|[^\w.-])/g, this.spec.workspaceDir);
  }

  // The host's environment (keys, tokens) is not passed on.
  private commandEnv(marker: string): Record<string, string> {
    const isolated = this.context.isolation === 'bwrap';
    return {
      PATH: isolated ? SANDBOX_PATH : (process.env['PATH'] ?? SANDBOX_PATH),
      HOME: isolated ? '/tmp' : this.spec.workspaceDir,
      LANG: 'C.UTF-8',
      ...NON_INTERACTIVE_ENV,
      [EXEC_MARKER]: marker,
    };
  }

  /** Its share of the tasks' disk (DiskShares), once one is free. */
  private async holdDiskShare(): Promise<void> {
    const holder = { name: this.name, stopping: this.stopping.signal, stopped: () => this.stopped, onProgress: this.spec.onProgress };
    this.diskShare = await this.context.diskShares?.shareFor(holder);
  }

  /**
   * Everything a timed-out command started. In bubblewrap its namespace is gone with it. As plain
   * processes the group goes, and then whatever still carries the command's marker in its environment
   * (what left the group with `setsid`); a process that left the group and cleared its environment
   * (`env -i setsid ...`) cannot be told from the host's own and lives on.
   */
  private async killCommand(running: LocalCommand, marker: string): Promise<void> {
    await running.kill();
    if (this.context.isolation === 'process') await this.context.processes.killMarked(EXEC_MARKER, marker);
  }
}

/**
 * Why a path of the workspace did not resolve: nothing there (FILE_NOT_FOUND, the one case a missing
 * loc.json is), a link to nothing, or another error of the filesystem's.
 */
function unresolved(path: string, name: string, entry: Stats | NodeJS.ErrnoException, error: NodeJS.ErrnoException): SandboxError {
  if (!(entry instanceof Stats)) {
    const missing = entry.code === 'ENOENT' || entry.code === 'ENOTDIR';
    if (missing) return new SandboxError('FILE_NOT_FOUND', `cannot read ${path} in ${name}: it does not exist`);
    return new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${name}: ${entry.code ?? entry.message}`);
  }
  if (entry.isSymbolicLink() && error.code === 'ENOENT')
    return new SandboxError('FILE_NOT_REGULAR', `cannot read ${path} in ${name}: it is a symbolic link that leads nowhere`);
  return new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${name}: ${error.code ?? error.message}`);
}
