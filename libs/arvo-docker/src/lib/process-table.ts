import { Injectable } from '@nestjs/common';
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';

// Linux reports process start times in clock ticks of USER_HZ, which is 100 on every architecture
// Node runs on. Owner ids and liveness checks use the same formula, so an error would cancel out.
const TICKS_PER_SECOND = 100;

/** The host's process table: liveness, start times, and killing processes by an environment marker. */
@Injectable()
export class ProcessTable {
  /** Whether a process with this pid exists (a zombie counts). */
  isAlive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  /** When the process started, in whole seconds since the epoch; undefined where /proc is not there. */
  startTimeS(pid: number): number | undefined {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const bootTime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
      if (!bootTime) return undefined;
      return Math.floor(Number(bootTime[1]) + Number(fields[19]) / TICKS_PER_SECOND);
    } catch {
      return undefined;
    }
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
