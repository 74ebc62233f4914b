// A loop as busy as another process's main thread, running none of its code: the floor of what that
// process's event-loop delay can be on the same machine at the same time.
//   node -r green-probe.cjs loop-twin.cjs <pid>
// Every TICK_MS it reads the kernel's count of the time <pid>'s main thread ran on a core and of its
// slices on one (/proc/<pid>/schedstat), and over the next TICK_MS spends what the other ran since the
// start and it did not (its own work included), in turns as long as the other's slices, spread evenly with
// the loop idle between them. It lags the other by one tick. Its own loop delay is measured by the
// preloaded probe (the same windows as an agent's). A slice is a turn or a part of one the kernel cut, so
// its turns are at most as long as the other's: its delays are, if anything, the shorter.
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

// Its own main thread's time on a core, everything it does included (its timers, its reads of /proc, the probe).
function ownRanNs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
}

const first = schedstat();
const ownFirst = ownRanNs();
let last = first;
// Turns set for the next tick and not yet run: owed already.
let pendingMs = 0;
function tick() {
  const now = schedstat();
  if (!now || !last || !first) return process.exit(0);
  const slices = now.slices - last.slices;
  const turnMs = slices > 0 ? Math.min(MAX_TURN_MS, Math.max(MIN_TURN_MS, (now.ran - last.ran) / 1e6 / slices)) : MAX_TURN_MS;
  last = now;
  // What the other has run since the start, less what this one has: its own work counts, and a tick it fell short is made up.
  const owedMs = (now.ran - first.ran - (ownRanNs() - ownFirst)) / 1e6 - pendingMs;
  if (owedMs > MIN_TURN_MS) {
    const turns = Math.max(1, Math.round(owedMs / turnMs));
    pendingMs += owedMs;
    for (let turn = 0; turn < turns; turn++)
      setTimeout(
        () => {
          pendingMs -= owedMs / turns;
          spin(owedMs / turns);
        },
        (turn * TICK_MS) / turns,
      );
  }
  setTimeout(tick, TICK_MS);
}
setTimeout(tick, TICK_MS);
