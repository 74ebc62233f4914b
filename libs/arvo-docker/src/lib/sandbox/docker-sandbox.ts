import {
  CommandGuard,
  containerName,
  type DiskShare,
  type DiskWatchdog,
  engineReason,
  type ExecOptions,
  type ExecOutcome,
  type Sandbox,
  SandboxError,
  type SandboxSpec,
} from '@arvo-rca/sandbox';
import { ContainerCommands, notRunning } from '../container/container-commands';
import { readContainerFile } from '../container/container-file';
import type { ContainerHandle } from '../engine/container-handle';
import { removeContainer } from '../container/container-removal';
import { startTaskContainer, type StartControl } from './container-start';
import type { DockerSandboxContext } from './docker-sandbox-context';
import type { StartBreakdown } from './start-breakdown';

const READ_DEADLINE_MS = 60_000;

/**
 * A task's sandbox in its own hardened Docker container (README, Sandbox guarantees): its start
 * (container-start.ts), its commands (container-commands.ts), file reads through the engine, and its removal.
 */
export class DockerSandbox implements Sandbox {
  readonly kind = 'docker' as const;
  readonly name: string;
  private container: ContainerHandle | undefined;
  private commands: ContainerCommands | undefined;
  private stopped = false;
  /** Aborted by `stop`: a start waiting on its image (whose pull goes on only for others waiting for it; it leaves no container) or its workspace gives up at once. */
  private readonly stopping = new AbortController();
  /** The start, while it runs and after: `stop` ends only once it has, and with it whatever it made. */
  private starting: Promise<void> | undefined;
  private readonly guard: CommandGuard;
  private watchdog: DiskWatchdog | undefined;
  private diskShare: DiskShare | undefined;
  /** Where the start went, once it is done; for the task log and the benchmark. */
  startBreakdown: StartBreakdown | undefined;

  constructor(
    private readonly context: DockerSandboxContext,
    private readonly spec: SandboxSpec,
  ) {
    this.name = containerName(spec.task);
    this.guard = new CommandGuard(spec.workspaceDir, context.options.privatePaths);
  }

  /** Watched: an engine that stops answering fails the start now, not at the pull's or the copy's deadline. */
  start(): Promise<void> {
    this.starting = this.context.engine.watched(`starting ${this.name}`, this.startOnce());
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    if (this.container || this.stopped) throw new SandboxError('SANDBOX_NOT_STARTED', `sandbox ${this.name} was already started`);
    try {
      this.startBreakdown = await startTaskContainer(this.startControl());
    } catch (error) {
      // The start's own failure is the task's reason, not a removal the engine refused after it.
      await this.remove().catch((cleanup: unknown) => this.spec.onProgress?.(`removing ${this.name} after its failed start failed: ${engineReason(cleanup)}`));
      throw error;
    }
  }

  async takeTurn(): Promise<void> {
    this.running();
    if (this.spec.waitS !== undefined && !this.diskShare) await this.acquireDiskShare();
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecOutcome> {
    const verdict = this.guard.check(command);
    if (verdict.kind === 'rejected') return verdict;
    return this.running().commands.exec(verdict.command, options);
  }

  /** Through the engine's archive API (see readContainerFile): what the solver left there is never opened in the container. */
  async readFile(path: string): Promise<Buffer> {
    const { container } = this.running();
    const target = this.guard.toSandboxPath(path);
    const read = readContainerFile(container, target, this.context.options.readFileMaxBytes, READ_DEADLINE_MS);
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
    this.commands?.close();
    const container = this.container;
    this.container = undefined;
    try {
      if (container) await this.context.engine.paced(() => this.context.engine.watched(`removing ${this.name}`, removeContainer(container)));
    } finally {
      // Its writes are gone with it: the next task may have its share.
      this.diskShare?.release();
      this.diskShare = undefined;
    }
    this.context.onStopped?.(this);
  }

  private startControl(): StartControl {
    const { name, context, spec } = this;
    return {
      name,
      context,
      spec,
      throwIfStopped: () => {
        if (this.stopped) throw this.stoppedWhileStarting();
      },
      untilStopped: <T>(work: Promise<T>) => this.untilStopped(work),
      stopping: this.stopping.signal,
      holdDiskShare: async () => {
        await context.inodeFloor?.refuseBelow();
        // Made ahead, it takes its share at its turn (takeTurn).
        if (spec.waitS === undefined) await this.acquireDiskShare();
      },
      adopt: (container) => {
        this.container = container;
        this.commands = new ContainerCommands({
          engine: context.engine,
          container,
          name,
          options: context.options,
          onProgress: spec.onProgress,
          stopped: () => this.stopped,
        });
        return this.commands;
      },
      watch: (watchdog) => {
        this.watchdog = watchdog;
      },
    };
  }

  /** Its share of the tasks' disk (DiskShares), once one is free. */
  private async acquireDiskShare(): Promise<void> {
    const holder = { name: this.name, stopping: this.stopping.signal, stopped: () => this.stopped, onProgress: this.spec.onProgress };
    this.diskShare = await this.context.diskShares?.shareFor(holder);
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

  private running(): { container: ContainerHandle; commands: ContainerCommands } {
    if (!this.container || !this.commands || this.stopped) throw notRunning(this.name);
    return { container: this.container, commands: this.commands };
  }
}
