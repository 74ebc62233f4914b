import { readdirSync, readFileSync } from 'node:fs';

/** Linux's clock ticks a second in /proc (USER_HZ): 100 wherever Linux runs user space. */
const TICKS_PER_S = 100;

/** Core-seconds of the agents over a stretch: their own, and what the processes they started ran. */
export interface AgentsCpu {
  agents_s: number;
  /** Their helpers (a folder counter, tar, an installed CLI) and the helpers' own children. */
  helpers_s: number;
}

interface Seen {
  comm: string;
  ppid: number;
  /** utime + stime, ticks. */
  own: number;
  /** cutime + cstime: the children it waited for, ticks. */
  children: number;
}

function read(pid: number): Seen | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    // After the name: state, ppid, ..., utime (the 14th field of the line), stime, cutime, cstime.
    const fields = stat.slice(close + 2).split(' ');
    const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
    return { comm: stat.slice(stat.indexOf('(') + 1, close), ppid: Number(fields[1]), own: utime + stime, children: cutime + cstime };
  } catch {
    return undefined;
  }
}

function processes(): Map<number, Seen> {
  const seen = new Map<number, Seen>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    const process = Number.isInteger(pid) ? read(pid) : undefined;
    if (process) seen.set(pid, process);
  }
  return seen;
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
      const delta = (pid: number, key: 'own' | 'children'): number => {
        const now = last.get(pid);
        const before = first.get(pid);
        if (!now) return 0;
        return now[key] - (before?.comm === now.comm ? before[key] : 0);
      };
      const descends = (pid: number): boolean => {
        for (let at = last.get(pid)?.ppid, hops = 0; at !== undefined && at > 1 && hops < 32; at = last.get(at)?.ppid, hops++) {
          if (agents.has(at)) return true;
        }
        return false;
      };
      let helpers = agentPids.reduce((sum, pid) => sum + delta(pid, 'children'), 0);
      for (const pid of last.keys()) if (!agents.has(pid) && descends(pid)) helpers += delta(pid, 'own') + delta(pid, 'children');
      return { agents_s: agentPids.reduce((sum, pid) => sum + delta(pid, 'own'), 0) / TICKS_PER_S, helpers_s: helpers / TICKS_PER_S };
    },
  };
}
