import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { bubblewrapArgs } from './bubblewrap';
import type { CommandRun } from '../command/exec-command';
import { releaseChunk, type HeadTailCap } from '../command/output-cap';

/** `bwrap`: inside bubblewrap. `process`: a plain process group on the host, nothing isolated. */
export type LocalIsolation = 'bwrap' | 'process';

export interface LocalCommandSpec {
  isolation: LocalIsolation;
  /** The command's argv as it runs: inside the sandbox for `bwrap`. */
  argv: string[];
  workspaceDir: string;
  /** Host paths bubblewrap covers should they lie in the system's trees. */
  hidden: readonly string[];
  env: Record<string, string>;
  cap: HeadTailCap;
}

// bwrap writes `{"child-pid": N, ...}` here once the sandbox is set up; the command never sees this fd.
const INFO_FD = 3;

/**
 * One command of the local sandbox, as a process of its own. In bubblewrap the command is pid 1 of a
 * pid namespace of its own: when it ends or is killed, the kernel kills every process of the namespace,
 * whatever they did (new sessions, a cleared environment, other names), before bwrap sees it gone. So
 * nothing of the command outlives it, timed out or not. As plain processes only its process group can
 * be found and killed.
 */
export class LocalCommand {
  private readonly child: ChildProcess;
  private readonly started = Date.now();
  private readonly closed: Promise<number | undefined>;
  /** Host pid of the command's pid 1 in bubblewrap, once bwrap has said it. */
  private sandboxPid1?: number;
  /** Settles once bwrap has said all it says on the info fd (it closes it right after setting up), or died. */
  private readonly infoRead: Promise<void> = Promise.resolve();
  private readonly isolation: LocalIsolation;

  constructor(spec: LocalCommandSpec) {
    this.isolation = spec.isolation;
    const [file, args] =
      spec.isolation === 'bwrap'
        ? ['bwrap', [...bubblewrapArgs(spec.workspaceDir, spec.hidden), '--info-fd', String(INFO_FD), '--', ...spec.argv]]
        : [spec.argv[0], spec.argv.slice(1)];
    // Its own process group, so that the whole group can be killed at once.
    const info = spec.isolation === 'bwrap' ? 'pipe' : 'ignore';
    this.child = spawn(file, args, { cwd: spec.workspaceDir, env: spec.env, detached: true, stdio: ['ignore', 'pipe', 'pipe', info] });
    const capture = (chunk: Buffer): void => {
      spec.cap.write(chunk);
      releaseChunk(chunk);
    };
    this.child.stdout?.on('data', capture);
    this.child.stderr?.on('data', capture);
    const infoPipe = this.child.stdio[INFO_FD];
    // Unreadable, the pid stays unknown and a kill takes bwrap's group instead.
    if (infoPipe) this.infoRead = this.readSandboxPid1(infoPipe as Readable).catch(() => undefined);
    this.closed = new Promise((resolve) => {
      this.child.once('error', (error) => {
        spec.cap.write(Buffer.from(`cannot run ${file}: ${error.message}\n`));
        resolve(127);
      });
      this.child.once('close', (code, signal) => resolve(code ?? (signal ? 128 + constants.signals[signal] : undefined)));
    });
  }

  /** Waits until the command ends; past `deadlineMs` it is killed and reported as hitting the host deadline. */
  async finished(deadlineMs: number): Promise<CommandRun> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => (timer = setTimeout(() => resolve('deadline'), deadlineMs)));
    const ended = await Promise.race([this.closed, deadline]);
    clearTimeout(timer);
    if (ended !== 'deadline') return { exitCode: ended, hostDeadlineHit: false, elapsedMs: Date.now() - this.started };
    await this.kill();
    return { exitCode: undefined, hostDeadlineHit: true, elapsedMs: Date.now() - this.started };
  }

  /**
   * Kills the command and waits until it is gone. In bubblewrap: SIGKILL to its pid 1, one signal that
   * needs no fork (a fork bomb cannot starve it), and bwrap exits only once the kernel has emptied the
   * namespace. As plain processes: SIGKILL to the process group, which may outlive its leader; what left
   * the group lives on.
   */
  async kill(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined) return;
    await this.infoRead;
    const running = this.child.exitCode === null && this.child.signalCode === null;
    const exited = running ? once(this.child, 'exit') : Promise.resolve();
    // The pid 1 is bwrap's child: its pid stays its own until bwrap has reaped it, and bwrap exits right
    // after. Before bwrap has said that pid, bwrap's group goes: the sandbox's first process is in it
    // until it starts the command, and from then on --die-with-parent takes it.
    if (this.isolation === 'process') signal(-pid);
    else if (running) signal(this.sandboxPid1 ?? -pid);
    await exited;
  }

  // Read to its end: bwrap writes the info in pieces, and a pipe closed after the first would kill it
  // before it lets the command start, leaving the sandbox's first process waiting forever.
  private async readSandboxPid1(info: Readable): Promise<void> {
    let text = '';
    for await (const chunk of info) {
      text += String(chunk);
      this.sandboxPid1 ??= Number(/"child-pid"\s*:\s*(\d+)/.exec(text)?.[1]) || undefined;
    }
  }
}

function signal(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
