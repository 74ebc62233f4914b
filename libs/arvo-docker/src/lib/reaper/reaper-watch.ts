import { engineReason } from '@arvo-rca/sandbox';
import type { DockerEngine } from '../engine/docker-engine';
import type { ReapedContainers, SandboxReaper } from './sandbox-reaper';

/** Where a sweep says what it removed and what it could not. */
export interface ReaperLog {
  log(line: string): void;
  warn(line: string): void;
}

export interface ReaperWatchSettings {
  /** The engine to look for dead owners' containers on; none for the local backend (task folders only). */
  engine: DockerEngine | undefined;
  tmpDir: string;
  /** Task folders older than this belong to nobody: no task outlives its limit and keep-alive margin. */
  maxAgeMs: number;
  intervalMs: number;
}

/** What one sweep removed: dead owners' containers with their task folders, and orphan or stale task folders. */
export interface Sweep {
  containers: ReapedContainers;
  workspaces: string[];
}

// A shutdown waits this long at most for a sweep under way: an engine that stopped answering must not hold it.
const STOP_WAIT_MS = 5_000;
// Distinct warnings remembered; past this the memory starts over (and a lasting refusal is said again).
const MAX_WARNED = 1_000;

/**
 * Sweeps for what dead owners of this host left (SandboxReaper): once at boot, then every `intervalMs`
 * while the green agent runs, so that an assessor killed mid-task leaves its containers and folders for
 * a minute at most, not until the next boot or its keep-alive. One sweep at a time; a sweep never
 * throws, and what the engine refuses is warned of once, not at every sweep.
 */
export class ReaperWatch {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Sweep> | undefined;
  private stopped = true;
  private readonly warned = new Set<string>();

  constructor(
    private readonly reaper: SandboxReaper,
    private readonly settings: ReaperWatchSettings,
    private readonly logger: ReaperLog,
  ) {}

  /** Sweeps every `intervalMs` from now on; the timer never keeps the process alive. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** No sweep after this; one under way is waited for, within a bound. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.running) return;
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise((resolve) => (bound = setTimeout(resolve, STOP_WAIT_MS).unref()))]);
    clearTimeout(bound);
  }

  /** One sweep; while one is under way, that one. */
  sweep(): Promise<Sweep> {
    this.running ??= this.sweepOnce().finally(() => (this.running = undefined));
    return this.running;
  }

  // The next sweep is timed from the end of this one: a slow engine never stacks sweeps.
  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.sweep().then(() => this.schedule()), this.settings.intervalMs).unref();
  }

  private async sweepOnce(): Promise<Sweep> {
    const { tmpDir, maxAgeMs } = this.settings;
    // Each on its own: an engine that refuses the list (a gateway's 403) still leaves stale folders to reap.
    const containers = await this.reapContainers();
    const workspaces = await this.reaper.reapWorkspaces(tmpDir, maxAgeMs).catch((error: unknown) => {
      this.warnOnce(`reaping stale workspaces failed: ${engineReason(error)}`);
      return [];
    });
    if (containers.containers.length + workspaces.length > 0) {
      this.logger.log(
        `reaped ${containers.containers.length} container(s) of dead owners with ${containers.workspaces.length} workspace(s) of theirs, and ${workspaces.length} workspace(s) of dead owners or stale`,
      );
    }
    return { containers, workspaces };
  }

  private async reapContainers(): Promise<ReapedContainers> {
    const none: ReapedContainers = { containers: [], workspaces: [], failed: [] };
    const { engine, tmpDir } = this.settings;
    if (!engine) return none;
    try {
      // Watched: an engine that stops answering fails the sweep, and the next one tries again.
      const reaped = await engine.watched("reaping dead owners' containers", this.reaper.reapContainers(engine, tmpDir));
      for (const { container, reason } of reaped.failed) this.warnOnce(`reaping leftovers: removing ${container} failed: ${reason}`);
      return reaped;
    } catch (error) {
      this.warnOnce(`reaping leftovers failed: ${engineReason(error)}`);
      return none;
    }
  }

  private warnOnce(line: string): void {
    if (this.warned.has(line)) return;
    if (this.warned.size >= MAX_WARNED) this.warned.clear();
    this.warned.add(line);
    this.logger.warn(line);
  }
}
