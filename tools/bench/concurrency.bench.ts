import { formatExecute } from '@arvo-rca/a2a-protocol';
import { expectSuccess, type BenchRig } from './bench-rig';
import { elapsedMs, median, round } from './bench-stats';

export interface ConcurrencyFigures {
  tasks: number;
  /** Command phase of one task alone: 20 × `sleep 0.1`, seconds. */
  single_s: number;
  /** Command phase of `tasks` tasks at once, each 20 × `sleep 0.1`, from the first command to the last reply. */
  parallel_s: number;
  ratio: number;
  /** Event-loop delay p99 of the green process over the whole parallel run (task setup, commands, scoring, cleanup). */
  loop_delay_p99_ms: number;
  /** The same over the command phase only. */
  loop_delay_p99_commands_ms: number;
  loop_delay_max_ms: number;
  /** Whole tasks, request to result (assets, container start, commands, scoring, cleanup). */
  task_single_s: number;
  task_parallel_s: number;
  task_ratio: number;
  repeats: number;
}

const COMMANDS_PER_TASK = 20;
const COMMAND = 'sleep 0.1';

interface Phase {
  commandsS: number;
  tasksS: number;
  loopP99RunMs: number;
  loopP99CommandsMs: number;
  loopMaxMs: number;
}

/**
 * One task alone, then `tasks` at once, `repeats` times, each task through the green agent's real
 * path. The command phases start together once every task's container runs, so the ratio shows
 * whether the green agent serves tasks side by side (about 1) or one after another (about `tasks`).
 */
export async function measureConcurrency(rig: BenchRig, tasks = 16, repeats = 3): Promise<ConcurrencyFigures> {
  const singles: Phase[] = [];
  const parallels: Phase[] = [];
  for (let repeat = 0; repeat < repeats; repeat++) {
    singles.push(await runPhase(rig, 1));
    parallels.push(await runPhase(rig, tasks));
  }
  const ratios = parallels.map((parallel, index) => parallel.commandsS / singles[index].commandsS);
  const taskRatios = parallels.map((parallel, index) => parallel.tasksS / singles[index].tasksS);
  return {
    tasks,
    single_s: round(median(singles.map((phase) => phase.commandsS))),
    parallel_s: round(median(parallels.map((phase) => phase.commandsS))),
    ratio: round(median(ratios)),
    loop_delay_p99_ms: round(median(parallels.map((phase) => phase.loopP99RunMs))),
    loop_delay_p99_commands_ms: round(median(parallels.map((phase) => phase.loopP99CommandsMs))),
    loop_delay_max_ms: round(Math.max(...parallels.map((phase) => phase.loopMaxMs))),
    task_single_s: round(median(singles.map((phase) => phase.tasksS))),
    task_parallel_s: round(median(parallels.map((phase) => phase.tasksS))),
    task_ratio: round(median(taskRatios)),
    repeats,
  };
}

async function runPhase(rig: BenchRig, count: number): Promise<Phase> {
  await rig.green.mark('run');
  const started = process.hrtime.bigint();
  const { result } = await rig.withSessions(count, async (sessions) => {
    await rig.green.mark('commands');
    const commandsStarted = process.hrtime.bigint();
    await Promise.all(
      sessions.map(async (session) => {
        for (let step = 0; step < COMMANDS_PER_TASK; step++) expectSuccess(await session.send(formatExecute(COMMAND)), COMMAND);
      }),
    );
    const commandsS = elapsedMs(commandsStarted) / 1000;
    return { commandsS, commands: await rig.green.report('commands') };
  });
  const tasksS = elapsedMs(started) / 1000;
  const run = await rig.green.report('run');
  return {
    commandsS: result.commandsS,
    tasksS,
    loopP99RunMs: run.loopDelayMs.p99,
    loopP99CommandsMs: result.commands.loopDelayMs.p99,
    loopMaxMs: run.loopDelayMs.max,
  };
}
