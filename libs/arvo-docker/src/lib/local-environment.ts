import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { constants } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { bubblewrapArgs } from './bubblewrap';
import { CommandGuard, SANDBOX_WORKSPACE } from './command-guard';
import { containerName } from './container-spec';
import { commandOutcome, EXEC_MARKER, NON_INTERACTIVE_ENV, shellCommandArgv, type CommandRun } from './exec-command';
import { HeadTailCap } from './output-cap';
import type { ProcessTable } from './process-table';
import type { ExecOptions, ExecOutcome, Sandbox, SandboxSpec } from './sandbox';
import { SandboxError } from './sandbox-error';
import type { SandboxOptions } from './sandbox-options';

/** `bwrap`: inside bubblewrap. `process`: a plain process group on the host, nothing isolated. */
export type LocalIsolation = 'bwrap' | 'process';

export const NO_ISOLATION_WARNING =
  'WARNING: NOTHING IS ISOLATED. The local sandbox runs the agent\'s commands as plain processes on this host, with ' +
  'its network and its files (bubblewrap is not installed or cannot run here). Use SANDBOX=docker, or install bwrap.';

export interface LocalSandboxContext {
  isolation: LocalIsolation;
  options: SandboxOptions;
  processes: ProcessTable;
  /** Host paths the sandbox must not show (private files, other tasks' workspaces). */
  hidden: readonly string[];
  onStopped?: (sandbox: Sandbox) => void;
}

/**
 * A task's sandbox without a container engine: each command runs with bash in the workspace, inside
 * bubblewrap where it works. Without it, `/workspace` in commands is mapped to the host folder.
 */
export class ArvoLocalEnvironment implements Sandbox {
  readonly kind = 'local' as const;
  readonly name: string;
  private readonly guard: CommandGuard;
  private readonly running = new Set<ChildProcess>();
  private started = false;
  private stopped = false;

  constructor(
    private readonly context: LocalSandboxContext,
    private readonly spec: SandboxSpec,
  ) {
    this.name = containerName(spec.task);
    this.guard = new CommandGuard(spec.workspaceDir, context.options.privatePaths);
  }

  async start(): Promise<void> {
    if (this.started || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} was already started`);
    const info = await stat(this.spec.workspaceDir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SandboxError('WORKSPACE_MISSING', `workspace ${this.spec.workspaceDir} of ${this.spec.task} is not a directory`);
    }
    if (this.context.isolation === 'process') this.spec.onProgress?.(`${this.name}: ${NO_ISOLATION_WARNING}`);
    this.started = true;
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
    const run = await this.spawnCommand(argv, marker, cap, (timeoutS + killAfterS + hostGraceS) * 1000);
    const outcome = commandOutcome(run, cap.finish(), timeoutS);
    if (outcome.kind === 'timeout') await this.context.processes.killMarked(EXEC_MARKER, marker);
    return outcome;
  }

  async readFile(path: string): Promise<Buffer> {
    this.checkRunning();
    const inside = relative(SANDBOX_WORKSPACE, this.guard.toSandboxPath(path));
    if (inside.startsWith('..') || isAbsolute(inside)) {
      throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${this.name}: the local sandbox reads only under ${SANDBOX_WORKSPACE}`);
    }
    // Resolved on the host, then checked: a symbolic link out of the workspace is not followed out.
    const root = await realpath(this.spec.workspaceDir);
    const target = await realpath(join(root, inside)).catch((error: NodeJS.ErrnoException) => {
      throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${this.name}: ${error.code ?? error.message}`);
    });
    if (relative(root, target).startsWith('..')) {
      throw new SandboxError('FILE_NOT_READABLE', `cannot read ${path} in ${this.name}: it leads out of the workspace`);
    }
    const info = await stat(target);
    if (info.size > this.context.options.readFileMaxBytes) {
      throw new SandboxError('FILE_TOO_LARGE', `${path} in ${this.name} is larger than ${this.context.options.readFileMaxBytes} bytes`);
    }
    return readFile(target);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const child of this.running) killGroup(child);
    this.running.clear();
    this.context.onStopped?.(this);
  }

  private checkRunning(): void {
    if (!this.started || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} is not running`);
  }

  private toHostPaths(command: string): string {
    return command.replace(/(?<![\w.-])\/workspace(?=$|[^\w.-])/g, this.spec.workspaceDir);
  }

  private spawnCommand(argv: string[], marker: string, cap: HeadTailCap, deadlineMs: number): Promise<CommandRun> {
    const env = {
      PATH: process.env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin',
      HOME: this.context.isolation === 'bwrap' ? '/tmp' : this.spec.workspaceDir,
      LANG: 'C.UTF-8',
      ...NON_INTERACTIVE_ENV,
      [EXEC_MARKER]: marker,
    };
    const [file, args] =
      this.context.isolation === 'bwrap'
        ? ['bwrap', [...bubblewrapArgs(this.spec.workspaceDir, this.context.hidden), '--', ...argv]]
        : [argv[0], argv.slice(1)];
    const started = Date.now();
    // Its own process group, so that the whole command can be killed at once; the host's environment
    // (keys, tokens) is not passed on.
    const child = spawn(file, args, { cwd: this.spec.workspaceDir, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.running.add(child);
    child.stdout?.on('data', (chunk: Buffer) => cap.write(chunk));
    child.stderr?.on('data', (chunk: Buffer) => cap.write(chunk));
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        killGroup(child);
        finish(undefined, true);
      }, deadlineMs);
      let done = false;
      const finish = (exitCode: number | undefined, hostDeadlineHit: boolean): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.running.delete(child);
        resolve({ exitCode, hostDeadlineHit, elapsedMs: Date.now() - started });
      };
      child.once('error', (error) => {
        cap.write(Buffer.from(`cannot run ${file}: ${error.message}\n`));
        finish(127, false);
      });
      child.once('close', (code, signal) => finish(code ?? (signal ? 128 + constants.signals[signal] : undefined), false));
    });
  }
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
