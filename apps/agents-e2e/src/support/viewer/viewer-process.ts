import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { ROOT } from '../processes/agent-processes';

const SERVING = /serving (http:\/\/\S+)/;

/** The viewer as `npm run view` starts it: its sources through tsx, over the run directories given. */
export class ViewerProcess {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(dirs: readonly string[]): Promise<ViewerProcess> {
    const port = await freePort();
    const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const child = spawn(process.execPath, [tsx, '--tsconfig', 'apps/viewer/tsconfig.app.json', 'apps/viewer/src/main.ts', '--port', String(port), ...dirs], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the viewer did not start within 60 s:\n${output}`)), 60_000);
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        const serving = SERVING.exec(output);
        if (serving) {
          clearTimeout(timer);
          resolve(serving[1]);
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the viewer exited with ${code}:\n${output}`));
      });
    });
    return new ViewerProcess(url, child);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exit = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exit;
  }
}
