// Preloaded into the green agent by the benchmark (`node -r green-probe.cjs main.js`), so that its
// event-loop delay and resident memory are measured inside the real process without a line of
// product code. The loop delay is monitorEventLoopDelay's: the interval between ticks of a 5 ms timer,
// so an idle loop reads about 5 ms. (A window cannot be paused: re-enabling such a histogram records
// the whole pause as one delay.) Silent unless the process was started with an IPC channel. Messages:
//   {id, kind: 'mark', window}    opens a measurement window (loop-delay histogram, peak RSS); with
//                                 keepPeak: true, one that leaves the kernel's peak-RSS mark to the windows open
//                                 (its own peak is then the process's since the last window that reset it)
//   {id, kind: 'report', window}  closes it and answers {id, loopDelayMs, rssBytes, gc}
//   {id, kind: 'heap', window}    writes a heap snapshot to the file `window` and answers {id} once written
// `gc` counts the garbage collections in the window, full (major) and young (minor), their time, the pauses of
// LONG_PAUSE_MS or more, and the longest pause since the process began;
// `connections` the connections the process opened in it, over TCP and over a local socket (the engine's).
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { constants, monitorEventLoopDelay, PerformanceObserver } = require('node:perf_hooks');

const RSS_SAMPLE_MS = 5;
const LOOP_RESOLUTION_MS = 5;
const NS_PER_MS = 1e6;

function peakRssFromProc() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

// Resets the kernel's peak-RSS mark to the current RSS (Linux); sampling covers systems without it.
function resetPeakRss() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

// Pauses of the main thread this long or longer are counted apart: those an event loop's p99 can feel.
const LONG_PAUSE_MS = 10;
const collections = { major: 0, minor: 0, majorMs: 0, minorMs: 0, longPauses: 0, longestMs: 0 };
const connections = { tcp: 0, local: 0 };

// Each connection the process opens (net.connect), by kind once it is up: a local socket has no remote address.
function countConnections() {
  require('node:diagnostics_channel').subscribe('net.client.socket', ({ socket }) => {
    socket.once('connect', () => (socket.remoteAddress === undefined ? (connections.local += 1) : (connections.tcp += 1)));
  });
}

function countCollections() {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        collections.major += 1;
        collections.majorMs += entry.duration;
      } else if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        collections.minor += 1;
        collections.minorMs += entry.duration;
      }
      if (entry.duration >= LONG_PAUSE_MS) collections.longPauses += 1;
      collections.longestMs = Math.max(collections.longestMs, entry.duration);
    }
  }).observe({ entryTypes: ['gc'] });
}

// What the resident memory is made of at the end of a window, MiB: the JS heap (used, and taken from the
// system), memory outside it (buffers, the engine's streams), and V8's own malloc.
function memoryNow() {
  const usage = process.memoryUsage();
  const heap = require('node:v8').getHeapStatistics();
  const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  return {
    heapUsed: mib(usage.heapUsed),
    heapTotal: mib(usage.heapTotal),
    heapPhysical: mib(heap.total_physical_size),
    external: mib(usage.external),
    arrayBuffers: mib(usage.arrayBuffers),
    v8Malloced: mib(heap.malloced_memory),
    v8PeakMalloced: mib(heap.peak_malloced_memory),
  };
}

function openWindow(keepPeak) {
  const histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const baseline = process.memoryUsage.rss();
  const kernelPeak = keepPeak || resetPeakRss();
  let sampled = baseline;
  // Sampling costs the loop it measures (a /proc read every few ms): only where the kernel keeps no peak.
  const sampler = kernelPeak ? undefined : setInterval(() => (sampled = Math.max(sampled, process.memoryUsage.rss())), RSS_SAMPLE_MS);
  sampler?.unref();
  histogram.enable();
  const busy = { cpu: process.cpuUsage(), elu: performance.eventLoopUtilization() };
  return { histogram, baseline, kernelPeak, sampler, sampled: () => sampled, collections: { ...collections }, connections: { ...connections }, busy };
}

function closeWindow(window) {
  window.histogram.disable();
  clearInterval(window.sampler);
  const now = process.memoryUsage.rss();
  const peak = Math.max(window.sampled(), now, window.kernelPeak ? peakRssFromProc() : 0);
  const h = window.histogram;
  return {
    loopDelayMs: { p50: h.percentile(50) / NS_PER_MS, p99: h.percentile(99) / NS_PER_MS, max: h.max / NS_PER_MS, mean: h.mean / NS_PER_MS, samples: h.count },
    rssBytes: { baseline: window.baseline, peak, end: now },
    memoryEnd: memoryNow(),
    gc: {
      major: collections.major - window.collections.major,
      minor: collections.minor - window.collections.minor,
      majorMs: collections.majorMs - window.collections.majorMs,
      minorMs: collections.minorMs - window.collections.minorMs,
      longPauses: collections.longPauses - window.collections.longPauses,
      // The longest since the process began: a window's own would need a reset that other windows share.
      longestMs: collections.longestMs,
    },
    connections: { tcp: connections.tcp - window.connections.tcp, local: connections.local - window.connections.local },
    busy: busySince(window.busy),
  };
}

// How busy the process was over the window: its CPU seconds (all threads, user and system) and the share
// of the time its event loop ran code rather than waiting (event-loop utilization, the main thread alone).
function busySince(start) {
  const cpu = process.cpuUsage(start.cpu);
  const elu = performance.eventLoopUtilization(start.elu);
  const round = (value, digits) => Math.round(value * 10 ** digits) / 10 ** digits;
  return { cpuUserS: round(cpu.user / 1e6, 2), cpuSystemS: round(cpu.system / 1e6, 2), loopUtilization: round(elu.utilization, 3) };
}

if (typeof process.send === 'function') {
  countCollections();
  countConnections();
  const windows = new Map();
  process.on('message', (message) => {
    if (!message || typeof message !== 'object') return;
    if (message.kind === 'mark') {
      windows.set(message.window, openWindow(message.keepPeak === true));
      process.send({ id: message.id });
    } else if (message.kind === 'heap') {
      require('node:v8').writeHeapSnapshot(message.window);
      process.send({ id: message.id });
    } else if (message.kind === 'report') {
      const window = windows.get(message.window);
      windows.delete(message.window);
      if (!window) return process.send({ id: message.id, error: `no window ${message.window}` });
      // A delay is recorded when the histogram's timer fires late: give a pending one the chance.
      setTimeout(() => process.send({ id: message.id, ...closeWindow(window) }), 2 * LOOP_RESOLUTION_MS);
    }
  });
  // The channel must not keep the agent alive once it wants to exit.
  process.channel?.unref();
}
