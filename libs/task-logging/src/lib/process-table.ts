import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who created a run directory: enough to tell later whether that very process still runs. */
export interface ProcessIdentity {
  host: string;
  pid: number;
  /** The kernel's start time of the process (Linux `/proc/<pid>/stat`), so that a reused pid does not pass for it. */
  started?: string;
}

/** The process table of this machine, the I/O boundary behind the freshness rule of `.current_run`. */
export class ProcessTable {
  self(): ProcessIdentity {
    return { host: hostname(), pid: process.pid, started: this.startTime(process.pid) };
  }

  /** True when the identified process runs on this host now; false for another host (it cannot be checked). */
  isRunning(identity: ProcessIdentity): boolean {
    if (identity.host !== hostname() || !Number.isInteger(identity.pid) || identity.pid <= 0) return false;
    if (!this.signalable(identity.pid)) return false;
    return identity.started === undefined || this.startTime(identity.pid) === identity.started;
  }

  private signalable(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      // EPERM: it exists but belongs to someone else.
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  private startTime(pid: number): string | undefined {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start at field 3; starttime is field 22.
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    } catch {
      return undefined;
    }
  }
}
