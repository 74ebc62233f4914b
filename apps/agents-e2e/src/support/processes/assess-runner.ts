import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT } from './agent-processes';

/** `npm run assess` as a real process: its output line by line (stdout and stderr together), and its exit once both have closed. */
export class AssessRunner {
  readonly lines: string[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly exit: Promise<number | null>;
  private exitCode: number | null | undefined;

  private constructor(readonly child: ChildProcess) {
    this.exit = once(child, 'close').then(([code]) => code as number | null);
    void this.exit.then((code) => {
      this.exitCode = code;
      this.wake();
    });
    for (const stream of [child.stdout, child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on('line', (line) => {
        this.lines.push(line);
        this.wake();
      });
    }
  }

  /**
   * Starts the runner with `args`, in the repository, with the environment of this process and `env`;
   * with `group`, in a process group of its own, which stopGroup() kills at once (tsx runs the runner in a child).
   */
  static start(args: string[], env: NodeJS.ProcessEnv, group = false): AssessRunner {
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const child = spawn(process.execPath, [tsx, '--tsconfig', 'tools/tsconfig.json', 'tools/assess/assess.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, CI: process.env['CI'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: group,
    });
    return new AssessRunner(child);
  }

  /** `npm start` itself, as a newcomer runs it: the agents' builds, then the runner on the bundled samples. */
  static npmStart(env: NodeJS.ProcessEnv): AssessRunner {
    // A group of its own: npm, its shell, nx and the runner with its agents all go with stopGroup().
    const child = spawn('npm', ['start'], {
      cwd: ROOT,
      env: { ...process.env, ...env, CI: process.env['CI'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    return new AssessRunner(child);
  }

  /** Ends a runner started by npmStart (or with `group`) that still runs, and everything it started, as a kill -9 would. */
  stopGroup(): void {
    if (this.exitCode !== undefined || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Gone between the check and the kill.
    }
  }

  /** Runs the runner to its end. */
  static async run(args: string[], env: NodeJS.ProcessEnv): Promise<AssessRunner> {
    const runner = AssessRunner.start(args, env);
    await runner.exited();
    return runner;
  }

  /** The exit code, once it exited. */
  get code(): number | null | undefined {
    return this.exitCode;
  }

  get output(): string {
    return this.lines.join('\n');
  }

  exited(): Promise<number | null> {
    return this.exit;
  }

  /** The lines matching `pattern`, once there are `count` of them; fails when the runner exits first. */
  async linesMatching(pattern: RegExp, count = 1): Promise<string[]> {
    for (;;) {
      const found = this.lines.filter((line) => pattern.test(line));
      if (found.length >= count) return found;
      if (this.exitCode !== undefined) throw new Error(`the runner exited before printing ${count} line(s) matching ${pattern}:\n${this.output}`);
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  private wake(): void {
    this.waiters.splice(0).forEach((wake) => wake());
  }

  /** What each line matching `pattern` captures (a pattern with one group), in order. */
  captures(pattern: RegExp): string[] {
    return this.lines.flatMap((line) => {
      const match = pattern.exec(line);
      return match ? [match[1]] : [];
    });
  }

  /** The first line's capture of `pattern` (a pattern with one group); throws, with the output, when none matches. */
  capture(pattern: RegExp): string {
    for (const line of this.lines) {
      const match = pattern.exec(line);
      if (match) return match[1];
    }
    throw new Error(`the runner printed no line matching ${pattern}:\n${this.output}`);
  }
}
