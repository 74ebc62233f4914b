import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PROBE_PRELOAD, ProbeClient } from '../probes/probe-client';
import { watchCoreTime } from './process-cpu';

const TWIN_SCRIPT = join(__dirname, '..', 'probes', 'loop-twin.cjs');
const WINDOW = 'loop-floor';

/**
 * Over one stretch of a run: an agent's event-loop p99, that of its twin (a loop as busy as the agent's
 * main thread, running none of its code: loop-twin.cjs) and the bench process's own, with how long the
 * agent's and the twin's main threads ran on a core. Where the twin's p99 is as far above the bench's as
 * the agent's, what the agent's loop waits for is its amount of work on these cores, not its code.
 */
export interface LoopFloor {
  window_s: number;
  agent_p99_ms: number;
  twin_p99_ms: number;
  bench_p99_ms: number;
  agent_ran_s: number;
  twin_ran_s: number;
}

/** The twin of the process `pid`, with the probe preloaded; it ends by itself once `pid` is gone. */
export class LoopTwin {
  readonly probe: ProbeClient;
  /** Its exit code, once it has exited. */
  readonly exited: Promise<number | null>;

  private constructor(private readonly child: ChildProcess) {
    this.probe = new ProbeClient(child);
    this.exited = once(child, 'exit').then(
      ([code]) => code as number | null,
      () => null,
    );
  }

  static async start(pid: number): Promise<LoopTwin> {
    const child = spawn(process.execPath, ['-r', PROBE_PRELOAD, TWIN_SCRIPT, String(pid)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    await once(child, 'spawn');
    return new LoopTwin(child);
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exit = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exit;
  }
}

/**
 * Measures the loop floor of the agent whose probe is `agent` (process `pid`) from `afterMs` on for
 * `forMs`, or until `stop` when that comes first; undefined when `stop` came before the stretch began.
 */
export function watchLoopFloor(agent: ProbeClient, pid: number, afterMs: number, forMs: number): { stop(): Promise<LoopFloor | undefined> } {
  let measuring: Promise<LoopFloor | undefined> | undefined;
  let stopEarly: (() => void) | undefined;
  const stopped = new Promise<void>((resolve) => (stopEarly = resolve));
  const begin = setTimeout(() => (measuring = measure(agent, pid, forMs, stopped)), afterMs);
  return {
    stop: async () => {
      clearTimeout(begin);
      stopEarly?.();
      return measuring;
    },
  };
}

async function measure(agent: ProbeClient, pid: number, forMs: number, stopped: Promise<void>): Promise<LoopFloor> {
  const twin = await LoopTwin.start(pid);
  try {
    const bench = monitorEventLoopDelay({ resolution: 5 });
    await Promise.all([agent.mark(WINDOW, { keepPeak: true }), twin.probe.mark(WINDOW)]);
    bench.enable();
    const cores = watchCoreTime([pid, twin.pid]);
    const started = Date.now();
    await Promise.race([new Promise((resolve) => setTimeout(resolve, forMs)), stopped]);
    const [agentCores, twinCores] = cores.stop();
    bench.disable();
    const [agentReport, twinReport] = await Promise.all([agent.report(WINDOW), twin.probe.report(WINDOW)]);
    const round = (value: number): number => Math.round(value * 100) / 100;
    return {
      window_s: round((Date.now() - started) / 1000),
      agent_p99_ms: round(agentReport.loopDelayMs.p99),
      twin_p99_ms: round(twinReport.loopDelayMs.p99),
      bench_p99_ms: round(bench.percentile(99) / 1e6),
      agent_ran_s: round(agentCores.ran_s),
      twin_ran_s: round(twinCores.ran_s),
    };
  } finally {
    await twin.stop();
  }
}
