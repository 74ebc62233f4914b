import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Docker from 'dockerode';
import { readEnvFile } from './engine-env';

const run = promisify(execFile);

/** How the report names the disk a figure's trees and engine were on. */
export type DiskName = 'fresh journaled ext4 (loop)' | 'machine disk';

/** loop-engine.sh's exit status when this machine cannot loop-mount a filesystem. */
const NO_LOOP_MOUNT = 3;
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/**
 * Where the figures that write trees (real_task, copy_in) put them, and the engine they run them on: a
 * fresh journaled ext4 with a dockerd of its own (tools/engines/loop-engine.sh), because on this machine's
 * ext4 without a journal the cost of making files depends on what was deleted in the minutes before
 * (docs/bench.md). Without root or loop devices, or with BENCH_DISK=machine, the machine's disk and
 * its main engine, as `reason` says.
 */
export class BenchDisk {
  private constructor(
    readonly name: DiskName,
    readonly docker: Docker,
    /** The folder the figure makes its scratch folders in. */
    readonly tmpDir: string,
    /** For the green agent and the scripts a figure runs: the engine (DOCKER_HOST) and TMPDIR. */
    readonly env: NodeJS.ProcessEnv,
    /** Why the machine's disk (BENCH_DISK=machine, no root, the loop mount's failure), or what the fresh one is. */
    readonly reason: string,
    private readonly engine?: LoopEngine,
  ) {}

  static async open(root: string, machineEngine: Docker, images: readonly string[]): Promise<BenchDisk> {
    const reason = machineDiskReason(process.env, process.getuid?.());
    if (reason) return BenchDisk.machine(machineEngine, reason);
    try {
      const engine = await LoopEngine.start(root, images);
      return new BenchDisk(
        'fresh journaled ext4 (loop)',
        engine.docker,
        engine.tmpDir,
        engine.env,
        'a dockerd of its own on a loop-mounted image file',
        engine,
      );
    } catch (error) {
      if (error instanceof LoopMountUnavailable) return BenchDisk.machine(machineEngine, error.message);
      throw error;
    }
  }

  private static machine(docker: Docker, reason: string): BenchDisk {
    return new BenchDisk('machine disk', docker, tmpdir(), {}, reason);
  }

  /** Takes the fresh filesystem's engine down, if there is one; never throws. */
  async close(): Promise<void> {
    await this.engine?.stop();
  }
}

/** Why the figures run on the machine's disk, or undefined when they may try a fresh filesystem. */
export function machineDiskReason(env: NodeJS.ProcessEnv, uid: number | undefined): string | undefined {
  const choice = env['BENCH_DISK'] ?? '';
  if (choice === 'machine') return 'BENCH_DISK=machine';
  if (choice !== '') throw new Error(`BENCH_DISK is "machine" or unset, not "${choice}"`);
  return uid === 0 ? undefined : 'a loop mount needs root';
}

/** loop-engine.sh could not make its filesystem here (no loop device, say); the message says why. */
class LoopMountUnavailable extends Error {}

/**
 * The engine of tools/engines/loop-engine.sh, its state in a temporary folder on the machine's disk (the
 * image file included). It goes down on every path: a failed start, `stop`, and SIGINT or SIGTERM of the
 * bench while it is up, after which the signal takes its course.
 */
class LoopEngine {
  private constructor(
    private readonly script: string,
    private readonly state: string,
    private readonly onSignal: (signal: NodeJS.Signals) => void,
    readonly docker: Docker,
    readonly tmpDir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async start(root: string, images: readonly string[]): Promise<LoopEngine> {
    const script = join(root, 'tools', 'engines', 'loop-engine.sh');
    const state = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-disk-'));
    const onSignal = (signal: NodeJS.Signals): void => {
      SIGNALS.forEach((other) => process.off(other, onSignal));
      takeDownDetached(script, state);
      process.kill(process.pid, signal);
    };
    SIGNALS.forEach((signal) => process.on(signal, onSignal));
    try {
      await run('bash', [script, 'up', state], { env: { ...process.env, IMAGES: images.join(' ') }, maxBuffer: 1 << 24 });
      const env = readEnvFile(join(state, 'env'));
      const [host, tmpDir] = [env['DOCKER_HOST'], env['TMPDIR']];
      if (!host?.startsWith('unix://') || !tmpDir) throw new Error(`${state}/env names no unix socket or no TMPDIR`);
      return new LoopEngine(script, state, onSignal, new Docker({ socketPath: new URL(host).pathname }), tmpDir, env);
    } catch (error) {
      SIGNALS.forEach((signal) => process.off(signal, onSignal));
      await takeDown(script, state);
      const failure = error as Error & { code?: number; stderr?: string };
      const why = failure.stderr?.trim() || failure.message;
      throw failure.code === NO_LOOP_MOUNT ? new LoopMountUnavailable(why) : new Error(`loop-engine.sh up failed: ${why}`);
    }
  }

  async stop(): Promise<void> {
    SIGNALS.forEach((signal) => process.off(signal, this.onSignal));
    await takeDown(this.script, this.state);
  }
}

async function takeDown(script: string, state: string): Promise<void> {
  await run('bash', [script, 'down', state]).catch((error: Error & { stderr?: string }) =>
    console.warn(`bench: loop-engine.sh down failed: ${error.stderr?.trim() || error.message}`),
  );
  rmSync(state, { recursive: true, force: true });
}

/**
 * The same, from a signal handler, in a session of its own: this process ends at once (tsx kills it 60 ms
 * after passing a signal on), and the terminal's Ctrl-C does not reach the takedown.
 */
function takeDownDetached(script: string, state: string): void {
  console.warn(`\nbench: taking the engine on the fresh filesystem down in the background (${script} down ${state})`);
  spawn('bash', ['-c', 'bash "$0" down "$1" >/dev/null 2>&1; rm -rf "$1"', script, state], { detached: true, stdio: 'ignore' }).unref();
}
