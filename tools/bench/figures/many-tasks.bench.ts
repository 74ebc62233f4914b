import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type Docker from 'dockerode';
import { IDLE_CONNECTION_MS } from '@arvo-rca/common';
import { ownerHost } from '@arvo-rca/sandbox';
import { median, round } from '../report/bench-stats';
import type { GreenProcess } from '../probes/green-process';
import { measureRunPage, type RunPageFigures } from '../rigs/many-tasks-viewer';
import {
  assess,
  containersOf,
  countStatuses,
  heapSnapshots,
  ManyTasksData,
  openHandles,
  scriptCommands,
  startAgents,
  startsPerSecond,
  watchHandles,
  watchStarts,
} from '../rigs/many-tasks-rig';
import { watchMachineCpu, type MachineCpu } from '../rigs/machine-cpu';
import { watchLoopFloor, type LoopFloor } from '../rigs/loop-floor';
import { watchAgentsCpu, watchCoreTime, type AgentsCpu, type CoreTime } from '../rigs/process-cpu';
import type { ProbeReport } from '../probes/probe-client';
import { engineFloor, type CommandsFloor } from '../probes/engine-floor';

/** One agent over the run: memory, event loop and file handles. */
export interface AgentFigures {
  rss_rest_mb: number;
  rss_peak_mb: number;
  rss_end_mb: number;
  /** (peak − rest) / tasks, MiB. */
  rss_per_task_mb: number;
  loop_p99_ms: number;
  loop_max_ms: number;
  /** Its p99 against the bench process's own over the same run. */
  loop_p99_vs_bench: number;
  handles_rest: number;
  handles_peak: number;
  handles_after: number;
  /** What its resident memory held at the end of the run, MiB (green-probe.cjs). */
  memory_end_mb?: Record<string, number>;
  /** Connections it opened during the run: over TCP (the other agent) and over a local socket (the engine). */
  connections?: { tcp: number; local: number };
  /** Its CPU seconds over the run and the share of the run its event loop was busy (green-probe.cjs). */
  busy?: ProbeReport['busy'];
  /** Its garbage collections over the run (green-probe.cjs). */
  gc?: ProbeReport['gc'];
}

export interface ManyTasksFigures {
  tasks: number;
  commands_per_task: number;
  think_ms: number;
  /** The think-bound ideal: (commands + the submission) × think time, s. */
  ideal_s: number;
  /** The engine's own time to start `tasks` containers of the sample image at once (create, start, workspace in, one command), s: the mean of the two below. */
  engine_start_floor_s: number;
  /** That floor measured before the run and after it, s. */
  engine_start_floors_s: number[];
  /** The assessment, request to Result, s. */
  wall_s: number;
  wall_vs_floor: number;
  n_scored: number;
  failures: number;
  /** Tasks by status, where any is not `scored`. */
  statuses: Record<string, number>;
  green: AgentFigures;
  purple: AgentFigures;
  loop_p99_bench_ms: number;
  /** Container starts per second: the engine's bare burst (the mean of both), and ours in the run (the engine's own event times). */
  engine_starts_per_s: number;
  /** The machine's busy core-seconds over the engine's bare burst (the mean of both): what its starts cost the CPU. */
  engine_floor_cpu_s: number;
  run_starts_per_s: number;
  /** The tasks' own commands run bare in the engine's burst after the run (absent in earlier reports). */
  commands_floor?: CommandsFloor;
  /**
   * The work's floor: the engine's starts and removals and the tasks' commands, each measured bare, over the
   * cores, s: no run of these tasks on this machine takes less, whatever the agents do.
   */
  work_floor_s?: number;
  /** The wall against the larger of the two floors: ideal + engine floor, and the work's floor. */
  wall_vs_larger_floor?: number;
  /** From the request to the last task container's start, s. */
  run_last_start_s: number;
  leftover_containers: number;
  leftover_workspaces: number;
  /** The viewer's page of the run, against a static table of the same cells. */
  viewer: RunPageFigures;
  /** What the machine's CPUs did over the run, and the agents' part with their helpers'. */
  machine_cpu: MachineCpu;
  agents_cpu: AgentsCpu;
  /** How long each main thread ran on a core over the run, and how long it waited for one (absent in earlier reports). */
  core_time?: { green: CoreTime; purple: CoreTime; bench: CoreTime };
  /** The green agent's loop against its twin's and the bench's over a stretch of the run (absent in earlier reports, or a run too short). */
  loop_floor?: LoopFloor;
}

const MIB = 1024 ** 2;
const THINK_MS = 2000;
const COMMANDS = 20;
// Longer than a kept connection waits unused: the handles counted after it are the ones a run leaves for good.
const SETTLE_MS = IDLE_CONNECTION_MS + 1000;
/**
 * Each task's disk share here: the samples write a few KiB. The bench's usual 2 GiB (BENCH_CONTAINER_DISK)
 * times 64 tasks passed this machine's free disk (67.6 GiB held 33 shares): the green agent ran 33 at
 * once, as it should, and the others waited for a share, which was the whole of the late starts.
 */
const TASK_DISK = '256m';
// The stretch of the run where the green agent's loop is set against its twin's: past the starts, before the ends.
const LOOP_FLOOR_AFTER_MS = 30_000;
const LOOP_FLOOR_MS = 20_000;

/** MANY_TASKS=32 runs the figure on fewer tasks (a machine or a time that cannot take 128). */
export function manyTasksCount(env: NodeJS.ProcessEnv = process.env): number {
  const count = Number(env['MANY_TASKS'] ?? 128);
  if (!Number.isInteger(count) || count < 1) throw new Error(`MANY_TASKS must be a whole number of tasks ≥ 1, not ${env['MANY_TASKS']}`);
  return count;
}

/**
 * `tasks` tasks at once through both agents as processes: one assessment on the green agent, the purple
 * agent on a scripted model that thinks THINK_MS before each of COMMANDS commands and the submission.
 * In the same run, the floors: the think-bound ideal, and the engine's own time to start as many
 * containers bare (before the run and after it: their mean). Both agents carry the probe (memory, event loop); their handles are counted from /proc.
 * Both have run one task before (a warm-up): their rest is an agent that has served a task and idles.
 */
export async function measureManyTasks(root: string, docker: Docker, owner: string, tasks = manyTasksCount()): Promise<ManyTasksFigures> {
  const scratch = mkdtempSync(join(tmpdir(), 'arvo-rca-bench-many-run-'));
  // One task more, for the warm-up.
  const data = await ManyTasksData.make(root, docker, tasks + 1);
  let agents: { green: GreenProcess; purple: GreenProcess } | undefined;
  try {
    // The engine's floor before the run and after it, and their mean (the median of two): one burst of starts varies by a tenth.
    const floors = [await engineFloor(root, docker, owner, scratch, tasks)];
    agents = await startAgents(root, scratch, data, { commands: COMMANDS, thinkMs: THINK_MS, taskDisk: TASK_DISK });
    const { green, purple } = agents;
    const [warmUp, ...taskIds] = data.taskIds;
    // At rest is after one task: what the first task loads once (code, pools, templates) is no task's own.
    await assess(green, purple.url, [warmUp], 1);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    await heapSnapshots(agents, 'rest');
    const rest = [openHandles(green.pid), openHandles(purple.pid)];
    const bench = monitorEventLoopDelay({ resolution: 5 });
    await Promise.all([green.probe.mark('run'), purple.probe.mark('run')]);
    bench.enable();
    const handles = watchHandles([green.pid, purple.pid]);
    const greenOwner = `${ownerHost()}:${green.pid}:`;
    const starts = await watchStarts(docker, greenOwner);
    const [cpu, ours, cores] = [watchMachineCpu(), watchAgentsCpu([green.pid, purple.pid]), watchCoreTime([green.pid, purple.pid, process.pid])];
    const loopFloor = watchLoopFloor(green.probe, green.pid, LOOP_FLOOR_AFTER_MS, LOOP_FLOOR_MS);
    const started = Date.now();
    const result = await assess(green, purple.url, taskIds, tasks);
    const ended = Date.now();
    const loopFloorFigures = await loopFloor.stop();
    const [machineCpu, agentsCpu, [greenCores, purpleCores, benchCores]] = [cpu.stop(), ours.stop(), cores.stop()];
    const runStarts = await starts.stop();
    bench.disable();
    const peaks = handles.stop();
    const [greenRun, purpleRun] = await Promise.all([green.probe.report('run'), purple.probe.report('run')]);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const after = [openHandles(green.pid), openHandles(purple.pid)];
    await heapSnapshots(agents, 'after');
    const leftover = (await containersOf(docker, greenOwner)).length;
    const benchP99 = bench.percentile(99) / 1e6;
    const agent = (report: ProbeReport, index: number): AgentFigures => agentFigures(report, tasks, benchP99, rest[index], peaks[index], after[index]);
    const ideal = ((COMMANDS + 1) * THINK_MS) / 1000;
    const wall = (ended - started) / 1000;
    const statuses = countStatuses(result);
    const leftoverWorkspaces = readdirSync(join(scratch, 'tasks')).length;
    await Promise.all([green.stop(), purple.stop()]);
    // After the run, the burst's containers also run the tasks' commands bare: the work's floor.
    const floorAfter = await engineFloor(root, docker, owner, scratch, tasks, scriptCommands(COMMANDS));
    floors.push(floorAfter);
    const floor = {
      seconds: median(floors.map((one) => one.seconds)),
      startsPerS: median(floors.map((one) => one.startsPerS)),
      cpuS: median(floors.map((one) => one.cpuS)),
    };
    const commandsFloor = floorAfter.commands;
    const workFloor = commandsFloor && (floor.cpuS + commandsFloor.cpu_s) / machineCpu.cores;
    const viewer = await measureRunPage(root, join(scratch, 'logs'), result);
    return {
      tasks,
      commands_per_task: COMMANDS,
      think_ms: THINK_MS,
      ideal_s: ideal,
      engine_start_floor_s: round(floor.seconds),
      engine_start_floors_s: floors.map((one) => round(one.seconds)),
      wall_s: round(wall),
      wall_vs_floor: round(wall / (ideal + floor.seconds)),
      n_scored: result.n_scored,
      failures: tasks - (statuses['scored'] ?? 0),
      statuses,
      green: agent(greenRun, 0),
      purple: agent(purpleRun, 1),
      loop_p99_bench_ms: round(benchP99),
      engine_starts_per_s: round(floor.startsPerS),
      engine_floor_cpu_s: round(floor.cpuS),
      run_starts_per_s: round(startsPerSecond(runStarts)),
      ...(workFloor === undefined
        ? {}
        : { commands_floor: commandsFloor, work_floor_s: round(workFloor), wall_vs_larger_floor: round(wall / Math.max(ideal + floor.seconds, workFloor)) }),
      run_last_start_s: round(((runStarts.at(-1) ?? Number.NaN) - started) / 1000),
      leftover_containers: leftover,
      leftover_workspaces: leftoverWorkspaces,
      viewer,
      machine_cpu: machineCpu,
      agents_cpu: agentsCpu,
      core_time: { green: greenCores, purple: purpleCores, bench: benchCores },
      loop_floor: loopFloorFigures,
    };
  } finally {
    await Promise.all([agents?.green.stop(), agents?.purple.stop()]);
    await data.remove();
    // BENCH_KEEP_LOGS=<folder>: the agents' logs (each task's start breakdown, the gate's pace) kept there.
    const keep = process.env['BENCH_KEEP_LOGS'];
    if (keep) cpSync(join(scratch, 'logs'), keep, { recursive: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

function agentFigures(report: ProbeReport, tasks: number, benchP99: number, rest: number, peak: number, after: number): AgentFigures {
  const { baseline, peak: rssPeak, end } = report.rssBytes;
  return {
    rss_rest_mb: round(baseline / MIB, 1),
    rss_peak_mb: round(rssPeak / MIB, 1),
    rss_end_mb: round(end / MIB, 1),
    rss_per_task_mb: round((rssPeak - baseline) / MIB / tasks, 3),
    loop_p99_ms: round(report.loopDelayMs.p99),
    loop_max_ms: round(report.loopDelayMs.max),
    loop_p99_vs_bench: round(report.loopDelayMs.p99 / benchP99),
    handles_rest: rest,
    handles_peak: peak,
    handles_after: after,
    memory_end_mb: report.memoryEnd,
    connections: report.connections,
    busy: report.busy,
    gc: report.gc,
  };
}
