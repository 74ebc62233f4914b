import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { round } from '../report/bench-stats';
import { startsPerSecond, watchStarts } from '../rigs/many-tasks-rig';
import { watchMachineCpu } from '../rigs/machine-cpu';
import { bareStarts, prepareWorkspace } from '../figures/start-breakdown.bench';
import { bareCommands } from './direct-exec';

/**
 * Every task's commands at once in the bare burst's containers, with no agent: the wall from the first to the
 * last done, s, and the core-seconds they cost the machine and, where it says, the containers' part.
 */
export interface CommandsFloor {
  seconds: number;
  cpu_s: number;
  containers_s?: number;
}

export interface EngineFloor {
  seconds: number;
  startsPerS: number;
  /** The machine's busy core-seconds over the starts and the removals. */
  cpuS: number;
  commands?: CommandsFloor;
}

/**
 * The engine's bare burst of `tasks` starts of the sample image, and its pace by its own event times. With
 * `commands`, the containers then run them bare (CommandsFloor) before their removal.
 */
export async function engineFloor(
  root: string,
  docker: Docker,
  owner: string,
  scratch: string,
  tasks: number,
  commands?: readonly string[],
): Promise<EngineFloor> {
  const workspaces = Array.from({ length: tasks }, () => prepareWorkspace(root, join(scratch, 'floor')));
  const watch = await watchStarts(docker, owner);
  const cpu = watchMachineCpu();
  let commandsFloor: CommandsFloor | undefined;
  const ms = await bareStarts(docker, owner, workspaces, commands && (async (containers) => void (commandsFloor = await runBare(containers, commands))));
  const cpuS = cpu.stop().busy_s - (commandsFloor?.cpu_s ?? 0);
  const starts = await watch.stop();
  rmSync(join(scratch, 'floor'), { recursive: true, force: true });
  return { seconds: ms / 1000, startsPerS: startsPerSecond(starts), cpuS, ...(commandsFloor ? { commands: commandsFloor } : {}) };
}

/** Every container runs the task's commands at once, bare (bareCommands): how long it took and what it cost. */
async function runBare(containers: readonly Docker.Container[], commands: readonly string[]): Promise<CommandsFloor> {
  const cpu = watchMachineCpu();
  const started = performance.now();
  const statuses = await Promise.all(containers.map((container) => bareCommands(container, commands)));
  const seconds = (performance.now() - started) / 1000;
  const { busy_s, containers_s } = cpu.stop();
  const failed = statuses.filter((status) => status !== 0).length;
  if (failed > 0) throw new Error(`the bare commands failed in ${failed} of ${containers.length} containers`);
  return { seconds: round(seconds), cpu_s: round(busy_s), ...(containers_s === undefined ? {} : { containers_s: round(containers_s) }) };
}
