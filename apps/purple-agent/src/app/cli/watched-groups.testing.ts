// Test-only child process (spawned by cli-group-watcher.spec.ts with `node --require tsx/cjs`): the owner of
// a CLI group watcher with two process groups of `sleep`, the first watched with its folder, the second
// watched and then unwatched; it prints their pids and its watcher's, then waits until its parent kills it.
// Usage: watched-groups.testing.ts <folder>
import { spawn } from 'node:child_process';
import { CliGroupWatcher } from './cli-group-watcher';

function group(): number {
  const child = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('sleep did not start');
  return child.pid;
}

const watcher = CliGroupWatcher.shared();
const [watched, unwatched] = [group(), group()];
watcher.watch(watched, [process.argv[2]]);
watcher.watch(unwatched, []);
watcher.unwatch(unwatched);
process.stdout.write(`${watched} ${unwatched} ${watcher.pid}\n`);
setInterval(() => undefined, 60_000);
