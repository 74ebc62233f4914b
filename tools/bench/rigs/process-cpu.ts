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
