import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DiskWatchdog, engineReason, SandboxError, type SandboxSpec } from '@arvo-rca/sandbox';
import { ContainerBoot } from '../container/container-boot';
import type { ContainerCommands } from '../container/container-commands';
import type { ContainerHandle, ContainerState } from '../engine/container-handle';
import { taskContainerSpec } from '../container/container-spec';
import { containerDiskMeter } from '../container/container-files';
import type { DockerSandboxContext } from './docker-sandbox-context';
import { describeStart, StartClock, type StartBreakdown } from './start-breakdown';
import { beginWorkspaceCopy, type WorkspaceCopy } from '../container/workspace-copy';

const COPY_DEADLINE_MS = 600_000;
// A container whose first command failed may read as running for a while yet: a busy engine (a TLS engine on
// a loaded machine, in CI) learnt of its main process's end only after it refused the exec.
const STOPPED_SETTLE_MS = 2_000;
const STOPPED_POLL_MS = 100;

/** What a start needs of its sandbox, and what it hands it as soon as it exists. */
export interface StartControl {
  readonly name: string;
  readonly context: DockerSandboxContext;
  readonly spec: SandboxSpec;
  /** Throws once the sandbox was stopped. */
  throwIfStopped(): void;
  /** The work's result, unless the sandbox is stopped first: then the start fails at once. */
  untilStopped<T>(work: Promise<T>): Promise<T>;
  /** Aborts once the sandbox is stopped. */
  readonly stopping: AbortSignal;
  /** Waits for the task's share of the running tasks' disk (DiskShares); fails when the total holds none. */
  holdDiskShare(): Promise<void>;
  /** Keeps the container as soon as it exists (a stop, or a failed start, removes it); its commands run through what this returns. */
  adopt(container: ContainerHandle): ContainerCommands;
  /** Keeps the disk watchdog, which the sandbox's removal stops. */
  watch(watchdog: DiskWatchdog): void;
}

/**
 * Starts a task's container: the image, create and start (paced by the engine's gate), the workspace's
 * copy beside the probe of the shell, the rest of the workspace beside the removal of `.git`, then the disk
 * watchdog. A start that fails stops what it began; removing the container is its sandbox's.
 */
export async function startTaskContainer(control: StartControl): Promise<StartBreakdown> {
  const { name, context, spec } = control;
  const clock = new StartClock();
  const pending = spec.pendingWorkspace;
  // Awaited below, unless the start fails or is stopped first: then its failure is not an unhandled one.
  pending?.ready.catch(() => undefined);
  let copying: Promise<WorkspaceCopy> | undefined;
  let boot: ContainerBoot | undefined;
  try {
    if (!pending) await checkWorkspace(spec);
    // A stopped start leaves the image's pull: nobody else waiting for it, it is cancelled.
    const watch = { say: spec.onProgress, progress: spec.onPull, signal: control.stopping };
    await clock.time('image', () => control.untilStopped(context.images.ensure(spec.image, context.options.pullTimeoutS, watch)));
    await control.holdDiskShare();
    const queued = performance.now();
    // The gate paces what loads the engine, create and start; the probe is a round trip and waits outside.
    const { container, started, commands } = await context.engine.paced(async () => {
      control.throwIfStopped();
      clock.record('queue', performance.now() - queued);
      const created = await clock.time('create', () => createContainer(control));
      const adopted = control.adopt(created);
      boot = await bootContainer(created, name, clock);
      return { container: created, started: boot, commands: adopted };
    }, 'start');
    // Stopped meanwhile (its task failed while the workspace was laid out): what was made goes at once.
    control.throwIfStopped();
    // The workspace's copy begins at once, with the source tree as the host extracts it, beside the probe.
    const note = (line: string): void => spec.onProgress?.(`${name}: ${line}`);
    copying = clock.time('tree', () => beginWorkspaceCopy(container, started, spec.workspaceDir, pending?.tree, COPY_DEADLINE_MS, note));
    // Awaited below; a start that fails before must not leave its failure unhandled.
    copying.catch(() => undefined);
    await awaitReady(container, started, commands, name, clock);
    if (pending) {
      // The workspace's own failure first: it is why the tree's copy stopped too.
      await clock.time('workspace', () => control.untilStopped(pending.ready));
      await checkWorkspace(spec);
    }
    const copy = await copying;
    // Both at once: the rest of the workspace, and the removal in the session.
    await Promise.all([clock.time('copy', () => copy.complete()), clock.time('git', () => commands.removeGitDirectories())]);
    started.close();
    watchDisk(control, container);
    control.throwIfStopped();
    const breakdown = clock.breakdown();
    spec.onProgress?.(`${name} ${describeStart(breakdown)}`);
    return breakdown;
  } catch (error) {
    // Its writer goes on without it.
    pending?.tree?.tar.destroy();
    void copying?.then(
      (copy) => copy.close(),
      () => undefined,
    );
    boot?.close();
    throw error;
  }
}

async function checkWorkspace(spec: SandboxSpec): Promise<void> {
  const info = await stat(spec.workspaceDir).catch(() => undefined);
  if (!info?.isDirectory()) {
    throw new SandboxError('WORKSPACE_MISSING', `workspace ${spec.workspaceDir} of ${spec.task} is not a directory`);
  }
}

async function createContainer({ name, context, spec }: StartControl): Promise<ContainerHandle> {
  const input = { ...spec, name, owner: context.owner, taskFolder: dirname(spec.workspaceDir), options: context.options };
  const create = (storageLimit: boolean): Promise<ContainerHandle> => context.engine.createContainer(taskContainerSpec({ ...input, storageLimit }));
  const storage = context.storageLimits;
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
      spec.onProgress?.(`the engine refused a storage quota (${engineReason(error)}): the disk watchdog alone limits the tasks' writes`);
      return create(false);
    })
    .catch((error: unknown) => {
      throw new SandboxError('CONTAINER_CREATE_FAILED', `creating container ${name} failed: ${engineReason(error)}`, { cause: error });
    });
}

// Attached before the start: the workspace goes in through the main process's stdin, and its own
// output (normally none) says why a container stopped right after its start.
async function bootContainer(container: ContainerHandle, name: string, clock: StartClock): Promise<ContainerBoot> {
  return clock
    .time('start', async () => {
      const boot = await ContainerBoot.attach(container);
      await container.start().catch((error: unknown) => {
        boot.close();
        throw error;
      });
      return boot;
    })
    .catch((error: unknown) => {
      throw new SandboxError('CONTAINER_START_FAILED', `starting container ${name} failed: ${engineReason(error)}`, { cause: error });
    });
}

// Up once the session's first command answers; a container that stopped at once says why in its output.
async function awaitReady(container: ContainerHandle, boot: ContainerBoot, commands: ContainerCommands, name: string, clock: StartClock): Promise<void> {
  await clock
    .time('probe', () => commands.probeTools())
    .catch(async (error: unknown) => {
      const state = await settledState(container);
      if (state?.running) throw error;
      const reason = boot.ownOutput().trim() || `exit code ${state?.exitCode ?? 'unknown'}`;
      throw new SandboxError('CONTAINER_START_FAILED', `starting container ${name} failed: it stopped at once: ${reason}`, { cause: error });
    });
}

/** The container's state once it reads as stopped, or as it reads after STOPPED_SETTLE_MS; undefined when the engine cannot say. */
async function settledState(container: ContainerHandle): Promise<ContainerState | undefined> {
  const deadline = Date.now() + STOPPED_SETTLE_MS;
  for (;;) {
    const state = await container.state().catch(() => undefined);
    if (!state?.running || Date.now() >= deadline) return state;
    await delay(STOPPED_POLL_MS);
  }
}

function watchDisk(control: StartControl, container: ContainerHandle): void {
  const { options } = control.context;
  const onDiskLimit = control.spec.onDiskLimit;
  if (!onDiskLimit) return;
  const { engine, folderCounter } = control.context;
  const meter = containerDiskMeter(container, engine.address.startsWith('unix://') ? folderCounter : undefined);
  const bounds = {
    bytes: options.diskBytes,
    files: options.diskFiles,
    intervalMs: options.diskCheckIntervalS * 1000,
    subject: "the task's container",
    floor: control.context.inodeFloor,
  };
  const watchdog = new DiskWatchdog(meter, bounds, onDiskLimit);
  control.watch(watchdog);
  watchdog.start();
}
