import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';

const ROOT = resolve(__dirname, '../../../..');
const CHILD = join(__dirname, 'log-child.testing.ts');

/** The task the kill-* children log, and how many lines before the last one. */
export const CHILD_TASK = { taskId: 'arvo:7', contextId: 'c0ffee00-1111-2222-3333-444455556666' };
export const CHILD_TASK_LINES = 200;

/** A log child as a real node process (tsx), its stdout read line by line. */
export class LogChild {
  readonly process: ChildProcessByStdio<Writable, Readable, null>;
  private readonly printed: string[] = [];
  private readonly waiters: Array<() => void> = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Settles once the child's stdout has ended and every line of it was read. */
  readonly closed: Promise<void>;

  constructor(args: string[]) {
    // tsx as a loader in this very process (its CLI would put a second process in between, and a
    // SIGKILL would hit only the outer one).
    this.process = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
      cwd: ROOT,
      env: { ...process.env, TSX_TSCONFIG_PATH: join(ROOT, 'tools', 'tsconfig.json') },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    this.exited = new Promise((done) => this.process.once('exit', (code, signal) => done({ code, signal })));
    const reader = createInterface({ input: this.process.stdout });
    reader.on('line', (line) => {
      this.printed.push(line);
      this.waiters.splice(0).forEach((wake) => wake());
    });
    this.closed = new Promise((done) => reader.once('close', done));
  }

  /** Every stdout line read so far. */
  lines(): string[] {
    return [...this.printed];
  }

  /** The first stdout line matching, waiting for it (or failing when the child exits first). */
  async line(matching: RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.printed.find((line) => matching.test(line));
      if (found) return found;
      if (this.process.exitCode !== null || this.process.signalCode !== null) throw new Error(`child exited before printing ${matching}`);
      if (Date.now() > deadline) throw new Error(`child printed no ${matching} within ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        this.waiters.push(wake);
        setTimeout(wake, 200);
      });
    }
  }

  send(line: string): void {
    this.process.stdin.write(`${line}\n`);
  }
}

/** Descriptors this process holds open on files under `dir` (Linux /proc). */
export function descriptorsUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

export function openDescriptorCount(): number {
  return readdirSync('/proc/self/fd').length;
}
