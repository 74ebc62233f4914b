import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Linux reports CPU and start times in /proc in clock ticks of USER_HZ: 100 on every architecture Node runs on. */
export const CLOCK_TICKS_PER_S = 100;
// The boot time the kernel reports follows the wall clock: one process's start read twice may differ by rounding.
const START_TOLERANCE_S = 2;

/** A process as another one can recognise it later: where it runs, its pid, and when it started. */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /**
   * When the process started, in whole seconds since the epoch, so that a later process reusing the pid
   * does not pass for it; absent where there is no /proc.
   */
  started?: number;
}

/** What /proc/<pid>/stat says of a process, the fields this project reads (times in clock ticks). */
export interface ProcessStat {
  pid: number;
  /** Its command name (at most 15 characters; it may hold spaces and parentheses). */
  name: string;
  /** Its state letter: `Z` is dead, not yet reaped. */
  state: string;
  ppid: number;
  /** Its process group. */
  pgid: number;
  /** CPU it ran itself (utime + stime). */
  cpuTicks: number;
  /** CPU of the children it waited for (cutime + cstime). */
  childrenCpuTicks: number;
  /** When it started, since boot. */
  startTicks: number;
}

/**
 * The host's process table: who runs, since when, and killing processes by an environment marker. Nest
 * provides it as it is (it takes no constructor parameters), so this lib needs no Nest.
 */
export class ProcessTable {
  /** This process. */
  self(): ProcessIdentity {
    return { host: hostname(), pid: process.pid, started: this.startTimeS(process.pid) };
  }

  /** True when the identified process runs on this host now; false for another host (it cannot be checked). */
  isRunning(identity: ProcessIdentity): boolean {
    if (identity.host !== hostname() || !Number.isInteger(identity.pid) || identity.pid <= 0) return false;
    return this.isRunningSince(identity.pid, identity.started);
  }

  /** Whether `pid` lives and, when `startedS` is given, is still the process that started then. */
  isRunningSince(pid: number, startedS?: number): boolean {
    if (!this.exists(pid)) return false;
    if (startedS === undefined) return true;
    const actualS = this.startTimeS(pid);
    return actualS === undefined || Math.abs(actualS - startedS) <= START_TOLERANCE_S;
  }

  /** Whether a process with this pid exists (a zombie counts). */
  exists(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: it exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  /** Whether a process with this pid runs: it exists and is not a zombie (one that ended, not yet reaped). */
  runs(pid: number): boolean {
    const state = this.stat(pid)?.state;
    return state !== undefined && state !== 'Z';
  }

  /** When the process started, in whole seconds since the epoch; undefined where /proc is not there. */
  startTimeS(pid: number): number | undefined {
    const ticksSinceBoot = this.stat(pid)?.startTicks;
    try {
      const bootTime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      if (!bootTime || ticksSinceBoot === undefined || !Number.isFinite(ticksSinceBoot)) return undefined;
      return Math.floor(Number(bootTime[1]) + ticksSinceBoot / CLOCK_TICKS_PER_S);
    } catch {
      return undefined;
    }
  }

  /** /proc/<pid>/stat, read; undefined once the process is gone, or where there is no /proc. */
  stat(pid: number): ProcessStat | undefined {
    let line: string;
    try {
      line = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return undefined;
    }
    // The name (field 2) is in parentheses and may hold spaces and parentheses: the fields after it
    // start past the last ')', with the state (field 3).
    const close = line.lastIndexOf(')');
    const fields = line.slice(close + 2).split(' ');
    const field = (number: number): number => Number(fields[number - 3]);
    return {
      pid,
      name: line.slice(line.indexOf('(') + 1, close),
      state: fields[0],
      ppid: field(4),
      pgid: field(5),
      cpuTicks: field(14) + field(15),
      childrenCpuTicks: field(16) + field(17),
      startTicks: field(22),
    };
  }

  /** Every process /proc shows now. */
  stats(): ProcessStat[] {
    let entries: string[];
    try {
      entries = readdirSync('/proc');
    } catch {
      return [];
    }
    return entries.flatMap((entry) => (/^\d+$/.test(entry) ? (this.stat(Number(entry)) ?? []) : []));
  }

  /** The pids of the processes whose parent is `pid`. */
  childrenOf(pid: number): number[] {
    return this.stats()
      .filter((stat) => stat.ppid === pid)
      .map((stat) => stat.pid);
  }

  /**
   * Sends SIGKILL to every process whose environment holds `name=value`, round after round until a look
   * finds none alive (one may have been forking, or not yet gone, when the last round looked), at most
   * `rounds` times; returns how many were found in all.
   */
  async killMarked(name: string, value: string, rounds = 20): Promise<number> {
    const marker = `${name}=${value}`;
    let found = 0;
    for (let round = 0; round < rounds; round++) {
      const marked = await this.marked(marker);
      if (marked.length === 0) return found;
      found += marked.length;
      for (const pid of marked) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return found;
  }

  // A killed process keeps its environment readable until it is dead; a zombie's reads empty.
  private async marked(marker: string): Promise<number[]> {
    const pids: number[] = [];
    for (const entry of await readdir('/proc').catch(() => [] as string[])) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      const environ = await readFile(`/proc/${entry}/environ`).catch(() => undefined);
      if (environ?.toString('latin1').split('\0').includes(marker)) pids.push(Number(entry));
    }
    return pids;
  }
}
