import { readFileSync } from 'node:fs';
import { CLOCK_TICKS_PER_S, ProcessTable, type ProcessStat } from '@arvo-rca/common';

/** Core-seconds of the agents over a stretch: their own, and what the processes they started ran. */
export interface AgentsCpu {
  agents_s: number;
  /** Their helpers (a folder counter, tar, an installed CLI) and the helpers' own children. */
  helpers_s: number;
}

function processes(): Map<number, ProcessStat> {
  return new Map(new ProcessTable().stats().map((stat) => [stat.pid, stat]));
}

/**
 * The CPU of the agents `agentPids` from now until `stop`, their helpers' included: a helper that ended
 * is in its agent's count of the children it waited for; one still running at `stop` is counted from
 * /proc (from its first look, or whole when it started since).
 */
export function watchAgentsCpu(agentPids: readonly number[]): { stop(): AgentsCpu } {
  const first = processes();
  const agents = new Set(agentPids);
  return {
    stop() {
      const last = processes();
      const delta = (pid: number, key: 'cpuTicks' | 'childrenCpuTicks'): number => {
        const now = last.get(pid);
        const before = first.get(pid);
        if (!now) return 0;
        return now[key] - (before?.name === now.name ? before[key] : 0);
      };
      const descends = (pid: number): boolean => {
        for (let at = last.get(pid)?.ppid, hops = 0; at !== undefined && at > 1 && hops < 32; at = last.get(at)?.ppid, hops++) {
          if (agents.has(at)) return true;
        }
        return false;
      };
      let helpers = agentPids.reduce((sum, pid) => sum + delta(pid, 'childrenCpuTicks'), 0);
      for (const pid of last.keys()) if (!agents.has(pid) && descends(pid)) helpers += delta(pid, 'cpuTicks') + delta(pid, 'childrenCpuTicks');
      return { agents_s: agentPids.reduce((sum, pid) => sum + delta(pid, 'cpuTicks'), 0) / CLOCK_TICKS_PER_S, helpers_s: helpers / CLOCK_TICKS_PER_S };
    },
  };
}

/** A main thread over a stretch: how long it ran on a core, and how long it was ready to run and waited for one. */
export interface CoreTime {
  ran_s: number;
  waited_s: number;
}

// /proc/<pid>/schedstat: the main thread's time on a core, its time ready but waiting for one (ns), its slices.
function schedstat(pid: number): [number, number] | undefined {
  try {
    const [ran, waited] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return [ran, waited];
  } catch {
    return undefined;
  }
}

/**
 * How long the main threads of `pids` ran and waited for a core from now until `stop` (the kernel's
 * schedstat): where an event loop's delays come from on a machine whose cores are all taken. A thread
 * gone by `stop`, or unreadable, counts 0.
 */
export function watchCoreTime(pids: readonly number[]): { stop(): CoreTime[] } {
  const first = pids.map(schedstat);
  return {
    stop: () =>
      pids.map((pid, index) => {
        const [before, now] = [first[index], schedstat(pid)];
        if (!before || !now) return { ran_s: 0, waited_s: 0 };
        return { ran_s: (now[0] - before[0]) / 1e9, waited_s: (now[1] - before[1]) / 1e9 };
      }),
  };
}
