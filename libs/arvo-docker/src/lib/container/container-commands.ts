import { randomUUID } from 'node:crypto';
import { WORKSPACE } from '@arvo-rca/common';
import {
  commandOutcome,
  type CommandRun,
  engineReason,
  envList,
  EXEC_MARKER,
  type ExecOptions,
  type ExecOutcome,
  HeadTailCap,
  NON_INTERACTIVE_ENV,
  SandboxError,
  type SandboxOptions,
  shellCommandPrefix,
} from '@arvo-rca/sandbox';
import { ContainerBoot } from './container-boot';
import { runContainerExec } from './container-exec';
import type { ContainerHandle } from '../engine/container-handle';
import type { DockerEngine } from '../engine/docker-engine';
import { ShellSession } from './shell-session';

/** What a container's commands need of their sandbox. */
export interface CommandsContext {
  engine: DockerEngine;
  container: ContainerHandle;
  /** The sandbox's name, for its messages. */
  name: string;
  options: SandboxOptions;
  onProgress?: (line: string) => void;
  /** Whether the sandbox was stopped: its own steps then open no session and restart nothing. */
  stopped(): boolean;
}

const removeGit = (roots: readonly string[]): string =>
  `for d in ${roots.map(shellQuote).join(' ')}; do if [ -d "$d" ]; then find "$d" -name .git -prune -exec rm -rf {} + || exit 1; fi; done`;
const PROBE_TOOLS = 'for t in bash timeout; do command -v $t >/dev/null && echo $t; done; true';
const SCRIPT_PREFIX = ['sh', '-c'];
const HOUSEKEEPING_DEADLINE_MS = 300_000;
const RESTART_DEADLINE_MS = 60_000;
const RESTART_NOTE = 'every process of the task was ended (its sandbox was restarted; its files are as they were)';

export function notRunning(name: string): SandboxError {
  return new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${name} is not running`);
}

/**
 * The commands of a task's container: the solver's, through one long-lived shell session, each followed
 * by a restart of the container when it may have left processes behind; and the sandbox's own steps,
 * which never wait behind the solver's.
 */
export class ContainerCommands {
  private shell: readonly string[] = ['bash', '-lc'];
  private hasTimeout = true;
  /** The long-lived shell every command goes through; opened at start, and again after a command kills it. */
  private session: ShellSession | undefined;

  constructor(private readonly context: CommandsContext) {}

  private get options(): SandboxOptions {
    return this.context.options;
  }

  /** Runs a command the guard let through. */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecOutcome> {
    const { name } = this.context;
    const timeoutS = options.timeoutS ?? this.options.commandTimeoutS;
    const marker = randomUUID();
    const { killAfterS, hostGraceS } = this.options;
    const prefix = shellCommandPrefix({ shell: this.shell, timeoutS, killAfterS, useTimeout: this.hasTimeout });
    const deadlineMs = (this.hasTimeout ? timeoutS + killAfterS + hostGraceS : timeoutS) * 1000;
    let cap = new HeadTailCap(this.options.maxOutputBytes);
    // Watched: an engine that stops answering fails the command now, not at its (long) deadline.
    const runOnce = (): Promise<CommandRun> =>
      this.context.engine.watched(
        `running a command in ${name}`,
        this.openSession()
          .then((session) => session.run({ prefix, command, marker, onOutput: (_type, payload) => cap.write(payload), deadlineMs }))
          .catch((error: unknown) => {
            throw new SandboxError('EXEC_FAILED', `running a command in ${name} failed: ${engineReason(error)}`, { cause: error });
          }),
      );
    let run = await runOnce();
    if (run.pidsExhausted) {
      // What earlier commands left (a fork bomb that returned at once) fills the pids limit: it goes first.
      this.context.onProgress?.(`${name}: the task's processes filled its pids limit; they were ended before the next command`);
      await this.restartProcesses();
      // What they printed meanwhile is theirs, not this command's.
      cap = new HeadTailCap(this.options.maxOutputBytes);
      run = await runOnce();
    }
    const outcome = commandOutcome(run, cap.finish(), timeoutS);
    // A timed-out command, or one whose session died under it, may have left processes behind, in new
    // sessions, with a cleared environment, forking at the pids limit: none of them survives a restart.
    if (outcome.kind === 'ran' && outcome.timedOut === undefined && run.exitCode !== undefined) return outcome;
    await this.restartProcesses();
    return outcome.kind === 'ran' && outcome.timedOut !== undefined ? { ...outcome, timedOut: `${outcome.timedOut}; ${RESTART_NOTE}` } : outcome;
  }

  // The first command of the session: the container is up once it answers.
  async probeTools(): Promise<void> {
    const { name, onProgress } = this.context;
    const { output } = await this.housekeeping(PROBE_TOOLS, 'probing the shell');
    const tools = output.split('\n');
    if (!tools.includes('bash')) {
      this.shell = ['sh', '-c'];
      onProgress?.(`${name}: the image has no bash; commands run with sh -c`);
    }
    this.hasTimeout = tools.includes('timeout');
    if (!this.hasTimeout) onProgress?.(`${name}: the image has no timeout command; only the host deadline limits commands`);
  }

  // The fix's history must not be one `git log` away.
  async removeGitDirectories(): Promise<void> {
    const roots = this.options.removeGitUnder;
    if (roots.length === 0) return;
    if (this.context.stopped()) throw notRunning(this.context.name);
    await this.housekeeping(removeGit(roots), `removing .git under ${roots.join(', ')}`);
    this.context.onProgress?.(`${this.context.name}: removed .git directories under ${roots.join(', ')}`);
  }

  close(): void {
    this.session?.close();
  }

  private async openSession(): Promise<ShellSession> {
    if (!this.session?.usable) this.session = await ShellSession.open(this.context.container, envList(NON_INTERACTIVE_ENV), WORKSPACE);
    return this.session;
  }

  /**
   * Runs `<prefix> <text>` for the sandbox's own needs: through the session when it is free (no engine
   * exec), else as an exec of its own, so that it never waits behind a command of the solver's.
   */
  private async runAside(prefix: string[], text: string, onOutput: (payload: Buffer) => void, deadlineMs: number, retry = true): Promise<CommandRun> {
    const marker = randomUUID();
    const session = this.context.stopped() ? this.session : await this.openSession();
    if (session?.idle) {
      // Held until the session answers: when leftover processes filled the pids limit, what arrived is
      // theirs, and the step runs again once they are gone.
      const held: Buffer[] = [];
      const run = await session.run({ prefix, command: text, marker, onOutput: (_type, payload) => held.push(Buffer.from(payload)), deadlineMs });
      if (!run.pidsExhausted || !retry || this.context.stopped()) {
        for (const chunk of held) onOutput(chunk);
        return run;
      }
      await this.restartProcesses();
      return this.runAside(prefix, text, onOutput, deadlineMs, false);
    }
    const env = envList({ ...NON_INTERACTIVE_ENV, [EXEC_MARKER]: marker });
    return runContainerExec(this.context.container, {
      cmd: [...prefix, text],
      env,
      workingDir: WORKSPACE,
      onOutput: (_type, payload) => onOutput(payload),
      deadlineMs,
    });
  }

  /**
   * Ends every process in the container by restarting it through the engine: its init and everything
   * under it go, whatever they did to hide (new sessions, a cleared environment, other names, a fork
   * bomb at the pids limit, where no kill command could even start), and its files stay as they are.
   * The next command opens a new session.
   */
  private async restartProcesses(): Promise<void> {
    this.session?.close();
    this.session = undefined;
    if (this.context.stopped()) return;
    await this.context.engine
      .paced(() => restartContainer(this.context.container))
      .catch((error: unknown) => {
        this.context.onProgress?.(`${this.context.name}: restarting after a timed-out command failed: ${engineReason(error)}`);
      });
  }

  private async housekeeping(script: string, what: string): Promise<{ output: string }> {
    const cap = new HeadTailCap(16 * 1024);
    const run = await this.runAside(SCRIPT_PREFIX, script, (payload) => cap.write(payload), HOUSEKEEPING_DEADLINE_MS).catch((error: unknown) => {
      throw new SandboxError('SANDBOX_PREPARE_FAILED', `${what} in ${this.context.name} failed: ${engineReason(error)}`, { cause: error });
    });
    const { output } = cap.finish();
    if (run.exitCode !== 0) {
      throw new SandboxError('SANDBOX_PREPARE_FAILED', `${what} in ${this.context.name} failed (exit ${run.exitCode ?? 'none'}): ${output.trim()}`);
    }
    return { output };
  }
}

/**
 * Stops the container and starts it again: its main process boots anew, is told to leave the workspace
 * as it is, and keeps the container alive.
 */
async function restartContainer(container: ContainerHandle): Promise<void> {
  await container.stop().catch((error: unknown) => {
    // Stopped already (its keep-alive ran out): it starts again all the same.
    if ((error as { statusCode?: number }).statusCode !== 304) throw error;
  });
  const boot = await ContainerBoot.attachStopped(container);
  try {
    await container.start();
    await boot.skip(RESTART_DEADLINE_MS);
  } finally {
    boot.close();
  }
}

/** One word for sh, whatever it holds. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
