// Rows of the bench table for the many_tasks figure.
import { against, ms, type TableRow } from './bench-rows';
import type { AgentFigures, ManyTasksFigures } from '../figures/many-tasks.bench';
import type { CoreTime } from '../rigs/process-cpu';

const WALL_LIMIT = 1.2;
const RSS_PER_TASK_MIB = 2;
const LOOP_LIMIT = 1.5;
const VIEWER_LIMIT = 4;

export function manyTasksRows(many: ManyTasksFigures): TableRow[] {
  const n = many.tasks;
  const floor = many.ideal_s + many.engine_start_floor_s;
  const statuses = Object.entries(many.statuses)
    .filter(([status]) => status !== 'scored')
    .map(([status, count]) => `${count} ${status}`)
    .join(', ');
  return [
    {
      figure: `${n} tasks at once: think-bound ideal, ${many.commands_per_task} commands + submission × ${many.think_ms / 1000} s`,
      value: seconds(many.ideal_s),
      target: 'floor',
    },
    {
      figure: `  engine floor: ${n} bare starts of the sample image, the mean of before and after the run (${many.engine_start_floors_s.map(seconds).join(', ')}; ${many.engine_starts_per_s.toFixed(1)} starts/s, ${many.engine_floor_cpu_s.toFixed(0)} core-seconds)`,
      value: seconds(many.engine_start_floor_s),
      target: 'floor',
    },
    against(
      `  the run, both agents as processes, request to Result`,
      seconds(many.wall_s),
      `≤ ${WALL_LIMIT} × (ideal + engine floor)`,
      many.wall_s / floor,
      WALL_LIMIT,
    ),
    against(`  tasks scored`, `${many.n_scored} of ${n}${statuses ? ` (${statuses})` : ''}`, `all ${n}`, many.failures, 0),
    {
      figure: `  our starts: ${many.run_starts_per_s.toFixed(1)} starts/s, the last at`,
      value: seconds(many.run_last_start_s),
      target: 'info',
    },
    machineRow(many),
    coresFloorRow(many, WALL_LIMIT * floor),
    ...workFloorRows(many, WALL_LIMIT * floor),
    ...agentRows('green', many.green, many.loop_p99_bench_ms, many.core_time?.green),
    ...agentRows('purple', many.purple, many.loop_p99_bench_ms, many.core_time?.purple),
    ...coreTimeRows(many),
    ...loopFloorRows(many),
    against(
      `  containers and workspaces left after the run`,
      `${many.leftover_containers} / ${many.leftover_workspaces}`,
      'none',
      many.leftover_containers + many.leftover_workspaces,
      0,
    ),
    against(
      `  the viewer's page of the run, all ${n} rows / a static table of the same cells`,
      `${ms(many.viewer.run_page_ms)} / ${ms(many.viewer.static_table_ms)}`,
      `≤ ${VIEWER_LIMIT} × the static table`,
      many.viewer.run_page_vs_static,
      VIEWER_LIMIT,
    ),
  ];
}

function agentRows(name: string, agent: AgentFigures, benchP99: number, cores?: CoreTime): TableRow[] {
  return [
    against(
      `  ${name} RSS per live task (rest ${agent.rss_rest_mb} MiB, peak ${agent.rss_peak_mb} MiB, end ${agent.rss_end_mb} MiB)`,
      `${agent.rss_per_task_mb.toFixed(2)} MiB`,
      `≤ ${RSS_PER_TASK_MIB} MiB`,
      agent.rss_per_task_mb / RSS_PER_TASK_MIB,
      1,
    ),
    against(
      `  ${name} event-loop p99 / the bench process's (max ${ms(agent.loop_max_ms, 0)}${busyNote(agent)}${cores ? `; ${coreNote(cores)}` : ''})`,
      `${ms(agent.loop_p99_ms)} / ${ms(benchP99)}`,
      `≤ ${LOOP_LIMIT} × the bench process's`,
      agent.loop_p99_vs_bench,
      LOOP_LIMIT,
    ),
    against(
      `  ${name} open handles: rest / peak / after`,
      `${agent.handles_rest} / ${agent.handles_peak} / ${agent.handles_after}`,
      'after ≤ rest',
      agent.handles_after - agent.handles_rest,
      0,
    ),
  ];
}

/**
 * How busy the machine was over the run, and whose the work was. On a machine busy all the time the wall
 * is at least the work over the cores: what is not the agents' own (the engine's starts, the containers'
 * commands, the bench) sets a floor no change of ours can go below.
 */
function machineRow(many: ManyTasksFigures): TableRow {
  const { machine_cpu: cpu, agents_cpu: agents } = many;
  const ours = agents.agents_s + agents.helpers_s;
  const share = (value: number): string => `${Math.round((100 * value) / (cpu.cores * cpu.seconds))}%`;
  const containers = cpu.containers_s === undefined ? '' : `containers ${cpu.containers_s.toFixed(0)}, `;
  const rest = cpu.busy_s - ours - (cpu.containers_s ?? 0);
  return {
    figure:
      `  the machine: busy ${share(cpu.busy_s)} of ${cpu.cores} cores over the run, steal ${share(cpu.steal_s)}; core-seconds: ${containers}` +
      `the agents ${agents.agents_s.toFixed(0)} and their helpers ${agents.helpers_s.toFixed(0)}, the engine and the rest ${rest.toFixed(0)}; what is not ours needs at least`,
    value: seconds((cpu.busy_s - ours) / cpu.cores),
    target: 'info',
  };
}

/**
 * The least the run could have taken on these cores, doing the work it did: all its busy core-seconds,
 * ours included, over the cores. Where the wall target is below it, the target asks for less work, not
 * better scheduling: no order of the same work on these cores meets it.
 */
function coresFloorRow(many: ManyTasksFigures, targetS: number): TableRow {
  const { machine_cpu: cpu } = many;
  const floor = cpu.busy_s / cpu.cores;
  return {
    figure: `  the cores' floor: all the run's work over its ${cpu.cores} cores (the wall is ${(many.wall_s / floor).toFixed(2)} × it; the wall's target is ${seconds(targetS)})`,
    value: seconds(floor),
    target: 'info',
  };
}

/**
 * The floor no agent can go below: the engine's bare starts and removals and the tasks' own commands run
 * bare (one shell a container, none of our code), over the cores. Where the wall's target is below it, the
 * target cannot be met on this machine; the wall is then set against the larger of the two floors.
 */
function workFloorRows(many: ManyTasksFigures, targetS: number): TableRow[] {
  const { commands_floor: commands, work_floor_s: workFloor, wall_vs_larger_floor: ratio } = many;
  if (!commands || workFloor === undefined || ratio === undefined) return [];
  const containers = commands.containers_s === undefined ? '' : `, the containers ${commands.containers_s.toFixed(0)}`;
  const below = targetS < workFloor ? `: the wall's target, ${seconds(targetS)}, is below it` : '';
  return [
    {
      figure:
        `  the work's floor: the engine's bare starts and removals (${many.engine_floor_cpu_s.toFixed(0)} core-seconds) and the tasks' ${many.tasks} × ${many.commands_per_task} commands ` +
        `run bare after the run, no agent (${commands.cpu_s.toFixed(0)} core-seconds${containers}; ${seconds(commands.seconds)} all at once), over the ${many.machine_cpu.cores} cores${below}`,
      value: seconds(workFloor),
      target: 'floor',
    },
    against(
      `  the run against the larger floor, max(ideal + engine floor, the work's floor)`,
      seconds(many.wall_s),
      `≤ ${WALL_LIMIT} × that`,
      ratio,
      WALL_LIMIT,
    ),
  ];
}

// The bench process's main thread over the run: how long an idle loop waited for a core, beside the agents'.
function coreTimeRows(many: ManyTasksFigures): TableRow[] {
  const bench = many.core_time?.bench;
  return bench
    ? [{ figure: `  the bench process's main thread, for the loops above: ${coreNote(bench)}`, value: seconds(bench.waited_s), target: 'info' }]
    : [];
}

/**
 * The green agent's loop over a stretch of the run against its twin's, a loop as busy with none of its code:
 * where the twin's p99 is as far above the bench's, the agent's delays are its amount of work on these
 * cores, and no change of its code but less work brings them down.
 */
function loopFloorRows(many: ManyTasksFigures): TableRow[] {
  const floor = many.loop_floor;
  if (!floor) return [];
  const vsBench = (p99: number): string => (p99 / floor.bench_p99_ms).toFixed(2);
  return [
    {
      figure:
        `  the green loop's floor over ${seconds(floor.window_s)} of the run: p99 of a loop as busy (ran ${seconds(floor.twin_ran_s)}, the agent ${seconds(floor.agent_ran_s)}), ` +
        `none of its code / the bench process's (${vsBench(floor.twin_p99_ms)} ×; the green agent's there ${ms(floor.agent_p99_ms)}, ${vsBench(floor.agent_p99_ms)} ×)`,
      value: `${ms(floor.twin_p99_ms)} / ${ms(floor.bench_p99_ms)}`,
      target: 'floor',
    },
  ];
}

function coreNote({ ran_s, waited_s }: CoreTime): string {
  return `main thread ran ${ran_s.toFixed(1)} s, waited ${waited_s.toFixed(1)} s for a core`;
}

// How busy the agent was over the run, where the probe says: its CPU time and its loop's share of busy time.
function busyNote(agent: AgentFigures): string {
  if (!agent.busy) return '';
  return `; CPU ${(agent.busy.cpuUserS + agent.busy.cpuSystemS).toFixed(1)} s, loop busy ${(agent.busy.loopUtilization * 100).toFixed(0)}%${gcNote(agent)}`;
}

// Its garbage collections over the run, where the probe counted their pauses.
function gcNote({ gc }: AgentFigures): string {
  if (gc?.minorMs === undefined || gc.longPauses === undefined || gc.longestMs === undefined) return '';
  const s = (msTotal: number): string => `${(msTotal / 1000).toFixed(1)} s`;
  return `; GC ${gc.minor} young (${s(gc.minorMs)}), ${gc.major} full (${s(gc.majorMs)}), ${gc.longPauses} pauses ≥ 10 ms, the longest ${ms(gc.longestMs, 0)}`;
}

function seconds(value: number): string {
  return `${value.toFixed(1)} s`;
}
