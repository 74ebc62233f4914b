import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CLOCK_TICKS_PER_S } from '@arvo-rca/common';
/** The task containers' CPU, where the engine groups them under cgroup v1's `docker` (the cgroupfs driver). */
const CONTAINERS_USAGE = '/sys/fs/cgroup/cpuacct/docker/cpuacct.usage';

/** What the machine's CPUs did over a stretch, in core-seconds. */
export interface MachineCpu {
  cores: number;
  seconds: number;
  /** Anything running: user, nice, system, interrupts. */
  busy_s: number;
  /** Taken by the hypervisor from this machine's CPUs. */
  steal_s: number;
  /** The containers' own processes; undefined where the engine's cgroups are not cgroup v1's `docker` group. */
  containers_s?: number;
}

interface Sample {
  at: number;
  busy: number;
  steal: number;
  containers?: number;
}

function sample(): Sample {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  let containers: number | undefined;
  try {
    containers = Number(readFileSync(CONTAINERS_USAGE, 'utf8')) / 1e9;
  } catch {
    containers = undefined;
  }
  return { at: performance.now(), busy: (user + nice + system + irq + softirq) / CLOCK_TICKS_PER_S, steal: steal / CLOCK_TICKS_PER_S, containers };
}

/** The machine's CPU from now until `stop`: how much of it the run took, and the containers' part. */
export function watchMachineCpu(): { stop(): MachineCpu } {
  const first = sample();
  return {
    stop() {
      const last = sample();
      const containers = first.containers === undefined || last.containers === undefined ? undefined : last.containers - first.containers;
      return {
        cores: availableParallelism(),
        seconds: (last.at - first.at) / 1000,
        busy_s: last.busy - first.busy,
        steal_s: last.steal - first.steal,
        ...(containers === undefined ? {} : { containers_s: containers }),
      };
    },
  };
}
