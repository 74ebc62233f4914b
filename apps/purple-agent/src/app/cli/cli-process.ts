// One CLI agent's process: started in a process group of its own with only the environment its launch
// gives, read a line at a time, and ended with its whole tree, by this process on every exit it lives
// through, and by the CLI group watcher on any other (a SIGKILL of the purple agent).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { CliLaunch } from './agent-cli';
import { CliGroupWatcher } from './cli-group-watcher';

/** How the process ended. */
export interface CliEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last STDERR_KEPT_CHARS of its stderr, where a failing CLI says why. */
  stderr: string;
}

const STDERR_KEPT_CHARS = 4096;
// A line of a CLI's JSON events holds a tool's output at most; one past this is cut, not held.
const LINE_MAX_CHARS = 4 * 1024 * 1024;

// Every CLI process alive in this process, so that an exit of the agent (a signal, a crash) takes them along.
const live = new Set<CliProcess>();
let hooked = false;

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const child of live) child.kill();
  });
}

export class CliProcess {
  readonly ended: Promise<CliEnd>;
  private stderr = '';
  private done = false;

  private constructor(
    private readonly child: ChildProcessByStdio<null, Readable, Readable>,
    onLine: (line: string) => void,
    folders: string[],
    watcher: CliGroupWatcher,
  ) {
    live.add(this);
    if (child.pid !== undefined) watcher.watch(child.pid, folders);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-STDERR_KEPT_CHARS)));
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => onLine(line.length > LINE_MAX_CHARS ? line.slice(0, LINE_MAX_CHARS) : line));
    const closed = new Promise<void>((resolve) => lines.once('close', () => resolve()));
    this.ended = new Promise<CliEnd>((resolve) => {
      const end = (code: number | null, signal: NodeJS.Signals | null): void => {
        this.done = true;
        live.delete(this);
        // Its group may outlive its leader (a child it left running): none of it stays.
        this.killGroup();
        if (child.pid !== undefined) watcher.unwatch(child.pid);
        void closed.then(() => resolve({ code, signal, stderr: this.stderr }));
      };
      this.child.once('exit', end);
      this.child.once('error', (error) => {
        this.stderr += `\n${error.message}`;
        end(null, null);
      });
    });
  }

  /**
   * Writes the launch's files, then starts `node <argv>` in `cwd`, each stdout line to `onLine`; the run's
   * `folders` are the watcher's to remove should this process die without ending the CLI.
   */
  static start(run: { launch: CliLaunch; cwd: string; folders: string[]; onLine: (line: string) => void }, watcher = CliGroupWatcher.shared()): CliProcess {
    const { launch, cwd, folders, onLine } = run;
    for (const [path, text] of Object.entries(launch.files)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text, { mode: 0o600 });
    }
    hookExit();
    const child = spawn(process.execPath, launch.argv, { cwd, env: launch.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    return new CliProcess(child, onLine, folders, watcher);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** SIGKILL to its whole process group; `ended` settles once the leader is gone. */
  kill(): void {
    this.killGroup();
    if (!this.done) this.child.kill('SIGKILL');
  }

  private killGroup(): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // The group is gone already.
    }
  }
}
