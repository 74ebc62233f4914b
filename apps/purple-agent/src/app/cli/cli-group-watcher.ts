// The CLIs' process groups outlive no purple agent: a small process of its own holds an IPC channel to the
// purple agent, which the kernel closes when the purple agent goes, however it goes (a SIGKILL, the OOM
// killer, a crash past every handler). Then it kills every group it was told of, removes their folders
// (HOME, working folder), and exits.
import { HelperProcess } from '@arvo-rca/common';

/** What the purple agent tells its watcher: a CLI's process group started, with its folders, or ended. */
export type WatcherRequest = { type: 'watch'; pgid: number; folders: string[] } | { type: 'unwatch'; pgid: number };

/**
 * The watcher's program, run by `node -e` so that it needs no file beside the bundle. In a process group of
 * its own, so that a signal to the purple agent's group (a terminal's Ctrl-C) leaves it to do its work.
 */
export const WATCHER_PROGRAM = `'use strict';
const { rmSync } = require('node:fs');
const groups = new Map();
process.on('message', ({ type, pgid, folders }) => {
  if (type === 'watch') groups.set(pgid, folders);
  else groups.delete(pgid);
});
process.on('disconnect', () => {
  for (const pgid of groups.keys()) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {}
  }
  // A process killed a moment ago may still be writing: a removal that finds a folder not yet empty tries again.
  for (const folders of groups.values()) {
    for (const folder of folders) {
      try {
        rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      } catch {}
    }
  }
  process.exit(0);
});
`;

/**
 * The one watcher of this process: started on first use (or by `start`, early, while the purple agent is
 * small, as its start forks it), it keeps the purple agent alive only while a group is watched; one that
 * dies is started again on the next use, and told of every group still watched.
 */
export class CliGroupWatcher {
  private static sharedWatcher: CliGroupWatcher | undefined;
  /** The folders of each group watched, by its pgid. */
  private readonly groups = new Map<number, string[]>();
  private readonly helper = new HelperProcess<WatcherRequest>(
    WATCHER_PROGRAM,
    { started: () => this.groups.forEach((folders, pgid) => this.helper.sendIfRunning({ type: 'watch', pgid, folders })) },
    { detached: true },
  );

  static shared(): CliGroupWatcher {
    CliGroupWatcher.sharedWatcher ??= new CliGroupWatcher();
    return CliGroupWatcher.sharedWatcher;
  }

  /** The watcher's pid, while it runs. */
  get pid(): number | undefined {
    return this.helper.pid;
  }

  start(): void {
    this.helper.start();
  }

  /** Has the group of `pgid` killed, and `folders` removed, should this process go without ending it. */
  watch(pgid: number, folders: string[]): void {
    this.groups.set(pgid, folders);
    this.helper.send({ type: 'watch', pgid, folders });
    this.helper.holdOpen(true);
  }

  /** The group has ended: nothing to kill any more (its number may be another's soon). */
  unwatch(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    this.helper.sendIfRunning({ type: 'unwatch', pgid });
    this.helper.holdOpen(this.groups.size > 0);
  }
}
