import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { ProbeClient, PROBE_PRELOAD } from '../probes/probe-client';
import { LoopTwin, watchLoopFloor } from './loop-floor';
import { watchCoreTime } from './process-cpu';

// A process busy about a third of the time: 1 ms of work, then 2 ms idle, with the probe preloaded.
const BUSY_SCRIPT = `
const turn = () => { const end = process.hrtime.bigint() + 1_000_000n; while (process.hrtime.bigint() < end); setTimeout(turn, 2); };
turn();`;

function startBusy(): ChildProcess {
  return spawn(process.execPath, ['-r', PROBE_PRELOAD, '-e', BUSY_SCRIPT], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exit = once(child, 'exit');
  child.kill('SIGKILL');
  await exit;
}

describe("a loop's twin: as busy as another process's main thread, with none of its code", () => {
  let busy: ChildProcess;

  beforeEach(async () => {
    busy = startBusy();
    await once(busy, 'spawn');
  });

  afterEach(async () => {
    await stop(busy);
  });

  it('spends on a core what the process it follows spends there, and ends by itself once that process is gone', async () => {
    const twin = await LoopTwin.start(busy.pid ?? 0);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const cores = watchCoreTime([busy.pid ?? 0, twin.pid]);
      await twin.probe.mark('spent');
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const [followed, own] = cores.stop();
      const report = await twin.probe.report('spent');

      expect(followed.ran_s).toBeGreaterThan(0.3);
      expect(own.ran_s).toBeGreaterThan(followed.ran_s * 0.8);
      expect(own.ran_s).toBeLessThan(followed.ran_s * 1.2);
      expect(report.loopDelayMs.samples).toBeGreaterThan(0);

      await stop(busy);
      expect(await twin.exited).toBe(0);
    } finally {
      await twin.stop();
    }
  }, 30_000);

  it('measures the agent, its twin and the bench over the stretch, or nothing when the run ends before it', async () => {
    const agent = new ProbeClient(busy);
    const early = watchLoopFloor(agent, busy.pid ?? 0, 60_000, 1000);
    expect(await early.stop()).toBeUndefined();

    const floor = watchLoopFloor(agent, busy.pid ?? 0, 0, 1500);
    // Past the stretch's end, with room for the twin's start (a node process; seconds on a busy machine).
    await new Promise((resolve) => setTimeout(resolve, 8000));
    const figures = await floor.stop();

    expect(figures?.window_s).toBeGreaterThanOrEqual(1.5);
    expect(figures?.agent_ran_s).toBeGreaterThan(0);
    expect(figures?.twin_ran_s).toBeGreaterThan(0);
    for (const p99 of [figures?.agent_p99_ms, figures?.twin_p99_ms, figures?.bench_p99_ms]) expect(p99).toBeGreaterThan(4);
  }, 30_000);
});
