import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { WORKSPACE } from '@arvo-rca/common';
import { CommandGuard, containerName, commandOutcome, type CommandRun, engineReason, envList, EXEC_MARKER, type ExecOptions, type ExecOutcome, HeadTailCap, NON_INTERACTIVE_ENV, type Sandbox, SandboxError, type SandboxOptions, type SandboxSpec, shellCommandPrefix } from '@arvo-rca/sandbox';
import { ContainerBoot } from './container-boot';
import type { ContainerHandle } from './container-handle';
import { readContainerFile } from './container-file';
import { runContainerExec } from './container-exec';
import { removeContainer } from './container-removal';
import { taskContainerSpec } from './container-spec';
import { DiskWatchdog } from './disk-watchdog';
import type { DockerEngine } from './docker-engine';
import type { ImagePuller } from './image-puller';
import { ShellSession } from './shell-session';
import { beginWorkspaceCopy, type WorkspaceCopy } from './workspace-copy';
import { describeStart, StartClock, type StartBreakdown } from './start-breakdown';

export interface DockerSandboxContext {
  /** Its engine, whose gate paces container starts and removals (`options.startConcurrency`). */
  engine: DockerEngine;
  images: ImagePuller;
  /** Owner id written into the container's owner label. */
  owner: string;
  options: SandboxOptions;
  /** Whether the engine limits a container's disk (`StorageOpt`); learnt at the first create, shared by one factory. */
  storageLimits: { supported?: boolean };
  /** Told once the sandbox is stopped, so that its factory stops tracking it. */
  onStopped?: (sandbox: Sandbox) => void;
}

const removeGit = (roots: readonly string[]): string =>
  `for d in ${roots.map(shellQuote).join(' ')}; do if [ -d "$d" ]; then find "$d" -name .git -prune -exec rm -rf {} + || exit 1; fi; done`;
const PROBE_TOOLS = 'for t in bash timeout; do command -v $t >/dev/null && echo $t; done; true';
const SCRIPT_PREFIX = ['sh', '-c'];
const HOUSEKEEPING_DEADLINE_MS = 300_000;
const READ_DEADLINE_MS = 60_000;
const COPY_DEADLINE_MS = 600_000;
const RESTART_DEADLINE_MS = 60_000;
const RESTART_NOTE = 'every process of the task was ended (its sandbox was restarted; its files are as they were)';

/** A task's sandbox in its own hardened Docker container (README, Sandbox guarantees). */
export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly name: string;
  private container: ContainerHandle | undefined;
  private shell: readonly string[] = ['bash', '-lc'];
  private hasTimeout = true;
  /** The long-lived shell every command goes through; opened at start, and again after a command kills it. */
  private session: ShellSession | undefined;
  private stopped = false;
  /** Aborted by `stop`: a start waiting on its image (the pull goes on; it leaves no container) or its workspace gives up at once. */
  private readonly stopping = new AbortController();
  /** The start, while it runs and after: `stop` ends only once it has, and with it whatever it made. */
  private starting: Promise<void> | undefined;
  private readonly guard: CommandGuard;
  private watchdog: DiskWatchdog | undefined;
  /** Where the start went, once it is done; for the task log and the benchmark. */
  startBreakdown: StartBreakdown | undefined;

  constructor(
    private readonly context: DockerSandboxContext,
    private readonly spec: SandboxSpec,
  ) {
    this.name = containerName(spec.task);
    this.guard = new CommandGuard(spec.workspaceDir, context.options.privatePaths);
  }

  private get options(): SandboxOptions {
    return this.context.options;
  }

  /** Watched: an engine that stops answering fails the start now, not at the pull's or the copy's deadline. */
  start(): Promise<void> {
    this.starting = this.context.engine.watched(`starting ${this.name}`, this.startOnce());
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    if (this.container || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} was already started`);
    const clock = new StartClock();
    const pending = this.spec.pendingWorkspace;
    // Awaited below, unless the start fails or is stopped first: then its failure is not an unhandled one.
    pending?.ready.catch(() => undefined);
    let copying: Promise<WorkspaceCopy> | undefined;
    let boot: ContainerBoot | undefined;
    try {
      if (!pending) await this.checkWorkspace();
      await clock.time('image', () => this.untilStopped(this.context.images.ensure(this.spec.image, this.options.pullTimeoutS, this.spec.onProgress)));
      const queued = performance.now();
      // The gate paces what loads the engine, create and start; the probe is a round trip and waits outside.
      const { container, started } = await this.context.engine.paced(async () => {
        this.throwIfStopped();
        clock.record('queue', performance.now() - queued);
        const created = await clock.time('create', () => this.createContainer());
        this.container = created;
        boot = await this.startContainer(created, clock);
        return { container: created, started: boot };
      }, 'start');
      // Stopped meanwhile (its task failed while the workspace was laid out): what was made goes at once.
      this.throwIfStopped();
      // The workspace's copy begins at once, with the source tree as the host extracts it, beside the probe.
      const note = (line: string): void => this.spec.onProgress?.(`${this.name}: ${line}`);
      copying = clock.time('tree', () => beginWorkspaceCopy(container, started, this.spec.workspaceDir, pending?.tree, COPY_DEADLINE_MS, note));
      // Awaited below; a start that fails before must not leave its failure unhandled.
      copying.catch(() => undefined);
      await this.awaitReady(container, started, clock);
      if (pending) {
        // The workspace's own failure first: it is why the tree's copy stopped too.
        await clock.time('workspace', () => this.untilStopped(pending.ready));
        await this.checkWorkspace();
      }
      const copy = await copying;
      // Both at once: the rest of the workspace, and the removal in the session.
      await Promise.all([clock.time('copy', () => copy.complete()), clock.time('git', () => this.removeGitDirectories())]);
      started.close();
      this.watchDisk(container);
      this.throwIfStopped();
      this.startBreakdown = clock.breakdown();
      this.spec.onProgress?.(`${this.name} ${describeStart(this.startBreakdown)}`);
    } catch (error) {
      // Its writer goes on without it.
      pending?.tree?.tar.destroy();
      void copying?.then((copy) => copy.close(), () => undefined);
      boot?.close();
      // The start's own failure is the task's reason, not a removal the engine refused after it.
      await this.remove().catch((cleanup: unknown) => this.spec.onProgress?.(`removing ${this.name} after its failed start failed: ${engineReason(cleanup)}`));
      throw error;
    }
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecOutcome> {
    const verdict = this.guard.check(command);
    if (verdict.kind === 'rejected') return verdict;
    const container = this.running();
    const timeoutS = options.timeoutS ?? this.options.commandTimeoutS;
    const marker = randomUUID();
    const { killAfterS, hostGraceS } = this.options;
    const prefix = shellCommandPrefix({ shell: this.shell, timeoutS, killAfterS, useTimeout: this.hasTimeout });
    const deadlineMs = (this.hasTimeout ? timeoutS + killAfterS + hostGraceS : timeoutS) * 1000;
    let cap = new HeadTailCap(this.options.maxOutputBytes);
    // Watched: an engine that stops answering fails the command now, not at its (long) deadline.
    const runOnce = (): Promise<CommandRun> =>
      this.context.engine.watched(
        `running a command in ${this.name}`,
        this.openSession(container)
          .then((session) => session.run({ prefix, command: verdict.command, marker, onOutput: (_type, payload) => cap.write(payload), deadlineMs }))
          .catch((error: unknown) => {
            throw new SandboxError('EXEC_FAILED', `running a command in ${this.name} failed: ${engineReason(error)}`, { cause: error });
          }),
      );
    let run = await runOnce();
    if (run.pidsExhausted) {
      // What earlier commands left (a fork bomb that returned at once) fills the pids limit: it goes first.
      this.spec.onProgress?.(`${this.name}: the task's processes filled its pids limit; they were ended before the next command`);
      await this.restartProcesses(container);
      // What they printed meanwhile is theirs, not this command's.
      cap = new HeadTailCap(this.options.maxOutputBytes);
      run = await runOnce();
    }
    const outcome = commandOutcome(run, cap.finish(), timeoutS);
    // A timed-out command, or one whose session died under it, may have left processes behind, in new
    // sessions, with a cleared environment, forking at the pids limit: none of them survives a restart.
    if (outcome.kind !== 'timeout' && run.exitCode !== undefined) return outcome;
    await this.restartProcesses(container);
    return outcome.kind === 'timeout' ? { ...outcome, note: `${outcome.note}; ${RESTART_NOTE}` } : outcome;
  }

  /** Through the engine's archive API (see readContainerFile): what the solver left there is never opened in the container. */
  async readFile(path: string): Promise<Buffer> {
    const container = this.running();
    const target = this.guard.toSandboxPath(path);
    const read = readContainerFile(container, target, this.options.readFileMaxBytes, READ_DEADLINE_MS);
    return this.context.engine.watched(`reading ${target} in ${this.name}`, read).catch((error: unknown) => {
      if (error instanceof SandboxError) throw new SandboxError(error.code, `${error.message} (in ${this.name})`, { cause: error });
      throw error;
    });
  }

  /** Removes the container; a start still under way is stopped first, at its next step, and removes what it made. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    await this.starting?.catch(() => undefined);
    await this.remove();
  }

  private async remove(): Promise<void> {
    this.stopped = true;
    this.watchdog?.stop();
    this.session?.close();
    const container = this.container;
    this.container = undefined;
    if (container) await this.context.engine.paced(() => this.context.engine.watched(`removing ${this.name}`, removeContainer(container)));
    this.context.onStopped?.(this);
  }

  private throwIfStopped(): void {
    if (this.stopped) throw this.stoppedWhileStarting();
  }

  private stoppedWhileStarting(): SandboxError {
    return new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} was stopped while starting`);
  }

  /** The work's result, unless the sandbox is stopped first: then the start fails at once, and the work is left to end alone. */
  private untilStopped<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    const signal = this.stopping.signal;
    return new Promise<T>((resolve, reject) => {
      const onStop = (): void => reject(this.stoppedWhileStarting());
      if (signal.aborted) return onStop();
      signal.addEventListener('abort', onStop, { once: true });
      void work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onStop));
    });
  }


  private running(): ContainerHandle {
    if (!this.container || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} is not running`);
    return this.container;
  }

  private async checkWorkspace(): Promise<void> {
    const info = await stat(this.spec.workspaceDir).catch(() => undefined);
    if (!info?.isDirectory()) {
      throw new SandboxError('WORKSPACE_MISSING', `workspace ${this.spec.workspaceDir} of ${this.spec.task} is not a directory`);
    }
  }

  private async createContainer(): Promise<ContainerHandle> {
    const input = { ...this.spec, name: this.name, owner: this.context.owner, taskFolder: dirname(this.spec.workspaceDir), options: this.options };
    const create = (storageLimit: boolean): Promise<ContainerHandle> => this.context.engine.createContainer(taskContainerSpec({ ...input, storageLimit }));
    const storage = this.context.storageLimits;
    const askedForLimit = storage.supported !== false;
    return create(askedForLimit)
      .then((container) => {
        storage.supported ??= true;
        return container;
      })
      .catch((error: unknown) => {
        // Most storage drivers cannot limit a container's disk; the watchdog then does it alone. Tasks
        // starting together may all ask before the first refusal is known: each one retries.
        if (!askedForLimit || storage.supported === true || !/storage.?opt/i.test(engineReason(error))) throw error;
        storage.supported = false;
        return create(false);
      })
      .catch((error: unknown) => {
        throw new SandboxError('CONTAINER_CREATE_FAILED', `creating container ${this.name} failed: ${engineReason(error)}`, { cause: error });
      });
  }

  private watchDisk(container: ContainerHandle): void {
    const onDiskLimit = this.spec.onDiskLimit;
    if (!onDiskLimit) return;
    this.watchdog = new DiskWatchdog(container, this.options.diskBytes, this.options.diskCheckIntervalS * 1000, onDiskLimit);
    this.watchdog.start();
  }

  // Attached before the start: the workspace goes in through the main process's stdin, and its own
  // output (normally none) says why a container stopped right after its start.
  private async startContainer(container: ContainerHandle, clock: StartClock): Promise<ContainerBoot> {
    return clock.time('start', async () => {
      const boot = await ContainerBoot.attach(container);
      await container.start().catch((error: unknown) => {
        boot.close();
        throw error;
      });
      return boot;
    }).catch((error: unknown) => {
      throw new SandboxError('CONTAINER_START_FAILED', `starting container ${this.name} failed: ${engineReason(error)}`, { cause: error });
    });
  }

  // Up once the session's first command answers; a container that stopped at once says why in its output.
  private async awaitReady(container: ContainerHandle, boot: ContainerBoot, clock: StartClock): Promise<void> {
    await clock.time('probe', () => this.probeTools(container)).catch(async (error: unknown) => {
      const state = await container.state().catch(() => undefined);
      if (state?.running) throw error;
      const reason = boot.ownOutput().trim() || `exit code ${state?.exitCode ?? 'unknown'}`;
      throw new SandboxError('CONTAINER_START_FAILED', `starting container ${this.name} failed: it stopped at once: ${reason}`, { cause: error });
    });
  }

  // The first command of the session: the container is up once it answers.
  private async probeTools(container: ContainerHandle): Promise<void> {
    const { output } = await this.housekeeping(container, PROBE_TOOLS, 'probing the shell');
    const tools = output.split('\n');
    if (!tools.includes('bash')) {
      this.shell = ['sh', '-c'];
      this.spec.onProgress?.(`${this.name}: the image has no bash; commands run with sh -c`);
    }
    this.hasTimeout = tools.includes('timeout');
    if (!this.hasTimeout) this.spec.onProgress?.(`${this.name}: the image has no timeout command; only the host deadline limits commands`);
  }

  // The fix's history must not be one `git log` away.
  private async removeGitDirectories(): Promise<void> {
    const roots = this.options.removeGitUnder;
    if (roots.length === 0) return;
    await this.housekeeping(this.running(), removeGit(roots), `removing .git under ${roots.join(', ')}`);
    this.spec.onProgress?.(`${this.name}: removed .git directories under ${roots.join(', ')}`);
  }

  private async openSession(container: ContainerHandle): Promise<ShellSession> {
    if (!this.session?.usable) this.session = await ShellSession.open(container, envList(NON_INTERACTIVE_ENV), WORKSPACE);
    return this.session;
  }

  /**
   * Runs `<prefix> <text>` for the sandbox's own needs: through the session when it is free (no engine
   * exec), else as an exec of its own, so that it never waits behind a command of the solver's.
   */
  private async runAside(container: ContainerHandle, prefix: string[], text: string, onOutput: (payload: Buffer) => void, deadlineMs: number, retry = true): Promise<CommandRun> {
    const marker = randomUUID();
    const session = this.stopped ? this.session : await this.openSession(container);
    if (session?.idle) {
      // Held until the session answers: when leftover processes filled the pids limit, what arrived is
      // theirs, and the step runs again once they are gone.
      const held: Buffer[] = [];
      const run = await session.run({ prefix, command: text, marker, onOutput: (_type, payload) => held.push(Buffer.from(payload)), deadlineMs });
      if (!run.pidsExhausted || !retry || this.stopped) {
        for (const chunk of held) onOutput(chunk);
        return run;
      }
      await this.restartProcesses(container);
      return this.runAside(container, prefix, text, onOutput, deadlineMs, false);
    }
    const env = envList({ ...NON_INTERACTIVE_ENV, [EXEC_MARKER]: marker });
    return runContainerExec(container, { cmd: [...prefix, text], env, workingDir: WORKSPACE, onOutput: (_type, payload) => onOutput(payload), deadlineMs });
  }

  /**
   * Ends every process in the container by restarting it through the engine: its init and everything
   * under it go, whatever they did to hide (new sessions, a cleared environment, other names, a fork
   * bomb at the pids limit, where no kill command could even start), and its files stay as they are.
   * The next command opens a new session.
   */
  private async restartProcesses(container: ContainerHandle): Promise<void> {
    this.session?.close();
    this.session = undefined;
    if (this.stopped) return;
    await this.context.engine.paced(() => restartContainer(container)).catch((error: unknown) => {
      this.spec.onProgress?.(`${this.name}: restarting after a timed-out command failed: ${engineReason(error)}`);
    });
  }

  private async housekeeping(container: ContainerHandle, script: string, what: string): Promise<{ output: string }> {
    const cap = new HeadTailCap(16 * 1024);
    const run = await this.runAside(container, SCRIPT_PREFIX, script, (payload) => cap.write(payload), HOUSEKEEPING_DEADLINE_MS).catch((error: unknown) => {
      throw new SandboxError('SANDBOX_PREPARE_FAILED', `${what} in ${this.name} failed: ${engineReason(error)}`, { cause: error });
    });
    const { output } = cap.finish();
    if (run.exitCode !== 0) {
      throw new SandboxError('SANDBOX_PREPARE_FAILED', `${what} in ${this.name} failed (exit ${run.exitCode ?? 'none'}): ${output.trim()}`);
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
