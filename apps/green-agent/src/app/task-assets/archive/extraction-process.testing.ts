import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

const ROOT = resolve(__dirname, '../../../../../..');
const CHILD = join(__dirname, 'extraction-child.testing.ts');

/** extraction-child.testing.ts as a real node process (tsx as a loader, so that a signal reaches it), its stdout by line. */
export class ExtractionChild {
  readonly process: ChildProcessByStdio<null, Readable, null>;
  readonly lines: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(args: string[], env: Record<string, string> = {}) {
    this.process = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.base.json') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.exited = new Promise((done) => this.process.once('exit', (code, signal) => done({ code, signal })));
    createInterface({ input: this.process.stdout }).on('line', (line) => this.lines.push(line));
  }

  /** Everything it printed, once it has exited. */
  async output(): Promise<string[]> {
    await this.exited;
    return this.lines;
  }
}
