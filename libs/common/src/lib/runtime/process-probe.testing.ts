// Test-only: the host's processes as /proc shows them, for suites that check what a run left behind
// (no procps needed: the sample images and slim hosts have none).
import { readFileSync, readlinkSync } from 'node:fs';
import { ProcessTable, type ProcessStat } from './process-table';

const table = new ProcessTable();

/** Every process /proc shows, with its group and its state. */
export function processes(): ProcessStat[] {
  return table.stats();
}

/** A process's argv or environment entries; none once it is gone (or a zombie). */
export function processEntries(pid: number, file: 'cmdline' | 'environ'): string[] {
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The value of `name` in a process's environment, if it has it. */
export function environValue(pid: number, name: string): string | undefined {
  return processEntries(pid, 'environ')
    .find((entry) => entry.startsWith(`${name}=`))
    ?.slice(name.length + 1);
}

/** A process's working folder; undefined once it is gone. */
export function workingFolder(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** The live (not zombie) processes whose argv has an entry containing `marker`. */
export function processesNaming(marker: string): ProcessStat[] {
  return processes().filter((info) => info.state !== 'Z' && processEntries(info.pid, 'cmdline').some((arg) => arg.includes(marker)));
}

/** The pids of a process group's live (not zombie) processes. */
export function liveInGroup(pgid: number): number[] {
  return processes()
    .filter((info) => info.pgid === pgid && info.state !== 'Z')
    .map((info) => info.pid);
}
