// A loop as busy as another process's main thread, running none of its code: the floor of what that
// process's event-loop delay can be on the same machine at the same time.
//   node -r green-probe.cjs loop-twin.cjs <pid>
// Every TICK_MS it reads the kernel's count of the time <pid>'s main thread ran on a core and of its
// slices on one (/proc/<pid>/schedstat), and over the next TICK_MS spends as much CPU in as many turns,
// spread evenly with the loop idle between them. It lags the other by one tick. Its own loop delay is
// measured by the preloaded probe (the same windows as an agent's); its time on a core, by its own schedstat. A slice is a turn or a part of one
// the kernel cut, so its turns are at most as long as the other's: its delays are, if anything, the shorter.
'use strict';
const { readFileSync } = require('node:fs');

const TICK_MS = 50;
const MIN_TURN_MS = 0.05;
const MAX_TURN_MS = 20;
const pid = Number(process.argv[2]);
if (!Number.isInteger(pid) || pid <= 0) throw new Error(`loop-twin: a process id is needed, not ${process.argv[2]}`);

// The main thread's time on a core (ns) and its slices, or undefined once it is gone.
function schedstat() {
  try {
    const [ran, , slices] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { ran, slices };
  } catch {
    return undefined;
  }
}

// A turn that uses `ms` of CPU, however long a busy machine makes it wait for a core meanwhile.
function spin(ms) {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

let last = schedstat();
function tick() {
  const now = schedstat();
  if (!now || !last) return process.exit(0);
  const ranMs = (now.ran - last.ran) / 1e6;
  const slices = now.slices - last.slices;
  last = now;
  if (ranMs > 0 && slices > 0) {
    const turnMs = Math.min(MAX_TURN_MS, Math.max(MIN_TURN_MS, ranMs / slices));
    const turns = Math.max(1, Math.round(ranMs / turnMs));
    for (let turn = 0; turn < turns; turn++) setTimeout(() => spin(ranMs / turns), (turn * TICK_MS) / turns);
  }
  setTimeout(tick, TICK_MS);
}
setTimeout(tick, TICK_MS);
