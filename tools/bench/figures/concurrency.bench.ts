import { monitorEventLoopDelay } from 'node:perf_hooks';
import type Docker from 'dockerode';
import { formatExecute } from '@arvo-rca/a2a-protocol';
import { expectSuccess, type BenchRig } from '../rigs/bench-rig';
import { elapsedMs, median, round } from '../report/bench-stats';
import { dockerodeExec } from '../probes/direct-exec';

export interface ConcurrencyFigures {
  tasks: number;
  /** Command phase of one task alone: 20 × `sleep 0.1`, seconds. */
  single_s: number;
  /** Command phase of `tasks` tasks at once, each 20 × `sleep 0.1`, from the first command to the last reply. */
  parallel_s: number;
  ratio: number;
  /** The same parallel commands by plain dockerode execs from the benchmark on as many task containers: the engine's own limit. */
  parallel_dockerode_s: number;
  parallel_vs_dockerode: number;
  /** Event-loop delay p99 of the green process over the whole parallel run (task setup, commands, scoring, cleanup). */
  loop_delay_p99_ms: number;
  /** The same over the command phase only. */
  loop_delay_p99_commands_ms: number;
  loop_delay_max_ms: number;
  /** The benchmark process's own p99 over the same run: what the machine's scheduling alone costs a Node process. */
  loop_delay_p99_bench_process_ms: number;
  /** Whole tasks, request to result (assets, container start, commands, scoring, cleanup). */
  task_single_s: number;
  task_parallel_s: number;
  task_ratio: number;
  repeats: number;
}

const COMMANDS_PER_TASK = 20;
const COMMAND = 'sleep 0.1';
const NS_PER_MS = 1e6;

interface Phase {
  commandsS: number;
  tasksS: number;
  loopP99RunMs: number;
  loopP99CommandsMs: number;
  loopMaxMs: number;
  loopP99BenchMs: number;
}

/**
 * One task alone, then `tasks` at once, `repeats` times, each task through the green agent's real
 * path. The command phases start together once every task's container runs, so the ratio shows
 * whether the green agent serves tasks side by side (about 1) or one after another (about `tasks`).
 * Then, once, the same commands by plain dockerode on `tasks` fresh task containers: what the engine
 * itself allows on this machine.
 */
export async function measureConcurrency(rig: BenchRig, tasks = 16, repeats = 3): Promise<ConcurrencyFigures> {
  const singles: Phase[] = [];
  const parallels: Phase[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    singles.push(await runPhase(rig, 1));
    parallels.push(await runPhase(rig, tasks));
  }
  const engineS = await engineReference(rig, tasks);
  const ratios = parallels.map((parallel, index) => parallel.commandsS / singles[index].commandsS);
  const taskRatios = parallels.map((parallel, index) => parallel.tasksS / singles[index].tasksS);
  const parallelS = median(parallels.map((phase) => phase.commandsS));
  return {
    tasks,
    single_s: round(median(singles.map((phase) => phase.commandsS))),
    parallel_s: round(parallelS),
    ratio: round(median(ratios)),
    parallel_dockerode_s: round(engineS),
    parallel_vs_dockerode: round(parallelS / engineS),
    loop_delay_p99_ms: round(median(parallels.map((phase) => phase.loopP99RunMs))),
    loop_delay_p99_commands_ms: round(median(parallels.map((phase) => phase.loopP99CommandsMs))),
    loop_delay_max_ms: round(Math.max(...parallels.map((phase) => phase.loopMaxMs))),
    loop_delay_p99_bench_process_ms: round(median(parallels.map((phase) => phase.loopP99BenchMs))),
    task_single_s: round(median(singles.map((phase) => phase.tasksS))),
    task_parallel_s: round(median(parallels.map((phase) => phase.tasksS))),
    task_ratio: round(median(taskRatios)),
    repeats,
  };
}

async function runPhase(rig: BenchRig, count: number): Promise<Phase> {
  const benchLoop = monitorEventLoopDelay({ resolution: 5 });
  benchLoop.enable();
  await rig.green.probe.mark('run');
  const started = process.hrtime.bigint();
  const { result } = await rig.withSessions(count, async (sessions) => {
    await rig.green.probe.mark('commands');
    const commandsS = await timeAll(sessions, async (session) => expectSuccess(await session.send(formatExecute(COMMAND)), COMMAND));
    return { commandsS, commands: await rig.green.probe.report('commands') };
  });
  const tasksS = elapsedMs(started) / 1000;
  const run = await rig.green.probe.report('run');
  benchLoop.disable();
  return {
    commandsS: result.commandsS,
    tasksS,
    loopP99RunMs: run.loopDelayMs.p99,
    loopP99CommandsMs: result.commands.loopDelayMs.p99,
    loopMaxMs: run.loopDelayMs.max,
    loopP99BenchMs: benchLoop.percentile(99) / NS_PER_MS,
  };
}

// The green agent only sets the containers up and idles meanwhile; the commands go by plain dockerode.
async function engineReference(rig: BenchRig, count: number): Promise<number> {
  const { result } = await rig.withSessions(count, async (sessions) => {
    const containers = await Promise.all(sessions.map((session) => rig.containerOf(session.contextId)));
    return timeAll(containers, async (container: Docker.Container) => {
      const code = await dockerodeExec(container, COMMAND.split(' '));
      if (code !== 0) throw new Error(`dockerode exec of ${COMMAND} exited with ${code}`);
    });
  });
  return result;
}

/** Seconds until every item has run `step` COMMANDS_PER_TASK times in a row, all items at once. */
async function timeAll<T>(items: T[], step: (item: T) => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await Promise.all(
    items.map(async (item) => {
      for (let index = 0; index < COMMANDS_PER_TASK; index++) await step(item);
    }),
  );
  return elapsedMs(started) / 1000;
}
