import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** The preload that measures a Node process from inside: `node -r <PROBE_PRELOAD> ...`, with an IPC channel. */
export const PROBE_PRELOAD = join(__dirname, 'green-probe.cjs');

const ANSWER_DEADLINE_MS = 10_000;

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}

/** What the probe measured over one window. */
export interface ProbeReport {
  loopDelayMs: LoopDelay;
  rssBytes: { baseline: number; peak: number; end: number };
  /**
   * Garbage collections in the window: full (major) and young (minor) ones, and their time; the pauses of
   * 10 ms or more, and the longest since the process began (absent from probes before these).
   */
  gc: { major: number; minor: number; majorMs: number; minorMs?: number; longPauses?: number; longestMs?: number };
  /** Connections the process opened in the window: over TCP (a peer agent), and over a local socket (the engine). */
  connections?: { tcp: number; local: number };
  /** What the resident memory held at the window's end, MiB (the JS heap, memory outside it, V8's malloc). */
  memoryEnd?: Record<string, number>;
  /** How busy it was: CPU seconds of all its threads, and the share of the window its event loop ran code. */
  busy?: { cpuUserS: number; cpuSystemS: number; loopUtilization: number };
}

type ProbeRequest = 'mark' | 'report' | 'heap';
// A heap snapshot of a few hundred MiB takes a while on a busy machine.
const HEAP_DEADLINE_MS = 300_000;

interface ProbeAnswer extends Partial<ProbeReport> {
  id: number;
  error?: string;
}

/** Talks to green-probe.cjs in a child process over its IPC channel: measurement windows by name. */
export class ProbeClient {
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: ProbeAnswer) => void>();

  constructor(private readonly child: ChildProcess) {
    child.on('message', (answer: ProbeAnswer) => {
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
  }

  /**
   * Opens a window: a fresh loop-delay histogram and a peak-RSS mark. `keepPeak`: the kernel's peak mark is
   * left as it is, for a window opened inside another whose peak it must not reset.
   */
  async mark(window: string, options: { keepPeak?: boolean } = {}): Promise<void> {
    await this.ask('mark', window, ANSWER_DEADLINE_MS, options);
  }

  /** Closes the window and returns what was measured in it. */
  async report(window: string): Promise<ProbeReport> {
    const answer = await this.ask('report', window);
    if (!answer.loopDelayMs || !answer.rssBytes || !answer.gc) throw new Error(`probe: ${answer.error ?? 'empty report'}`);
    return {
      loopDelayMs: answer.loopDelayMs,
      rssBytes: answer.rssBytes,
      gc: answer.gc,
      memoryEnd: answer.memoryEnd,
      connections: answer.connections,
      busy: answer.busy,
    };
  }

  /** Writes a heap snapshot of the process to `file` (its loop stands still meanwhile). */
  async heapSnapshot(file: string): Promise<void> {
    await this.ask('heap', file, HEAP_DEADLINE_MS);
  }

  private async ask(kind: ProbeRequest, window: string, deadlineMs = ANSWER_DEADLINE_MS, options: { keepPeak?: boolean } = {}): Promise<ProbeAnswer> {
    const id = this.nextId++;
    const answer = await new Promise<ProbeAnswer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`the probe did not answer "${kind} ${window}" within ${deadlineMs} ms (was it preloaded?)`));
      }, deadlineMs);
      this.waiting.set(id, (received) => {
        clearTimeout(timer);
        resolve(received);
      });
      this.child.send({ id, kind, window, ...options });
    });
    if (answer.error) throw new Error(`probe: ${answer.error}`);
    return answer;
  }
}
