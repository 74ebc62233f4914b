import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, as the viewer's browser tests drive it. */
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
const SERVING = /serving (http:\/\/\S+)/;

/** Why the figures that render in a browser cannot run here, if they cannot: asked before any figure runs. */
export function chromiumMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `${CHROMIUM} is missing: apt-get install chromium`;
}

export async function launchChromium(): Promise<Browser> {
  const missing = chromiumMissing();
  if (missing) throw new Error(missing);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/** The viewer as `npm run view` starts it (its sources through tsx), on a port of its own. */
export class ViewerRig {
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(root: string, dirs: readonly string[]): Promise<ViewerRig> {
    const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const child = spawn(process.execPath, [tsx, '--tsconfig', 'apps/viewer/tsconfig.app.json', 'apps/viewer/src/main.ts', '--port', '0', ...dirs], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const read = (chunk: Buffer): void => {
        output += chunk.toString();
        const serving = SERVING.exec(output);
        if (serving) resolve(serving[1]);
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.once('exit', (code) => reject(new Error(`the viewer exited with ${code}:\n${output}`)));
    });
    return new ViewerRig(url, child);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exit = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exit;
  }
}

/** One HTML page served over loopback, as the viewer's page is: the baseline a browser cannot beat by much. */
export class StaticPage {
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async serve(html: string): Promise<StaticPage> {
    const body = Buffer.from(html);
    const server = createServer((_, response) => {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.byteLength, 'Cache-Control': 'no-store' });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return new StaticPage(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
