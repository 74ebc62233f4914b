import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';
import { PROBE_PRELOAD, ProbeClient } from './probe-client';

const CARD_DEADLINE_MS = 60_000;
const LOG_TAIL_CHARS = 4000;

/** The agents the benchmark starts from their builds. */
export type AgentApp = 'green-agent' | 'purple-agent';

/**
 * The built green agent (or the purple one: `app`) as a real process, with green-probe.cjs preloaded so
 * that the benchmark can measure its event loop and memory from inside (`probe`) without a line of product code.
 */
export class GreenProcess {
  readonly probe: ProbeClient;
  private output = '';

  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly app: AgentApp = 'green-agent',
  ) {
    this.probe = new ProbeClient(child);
    const keep = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString()).slice(-LOG_TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts `dist/apps/<app>/main.js` on `port` and waits until it serves its card. */
  static async start(root: string, port: number, env: NodeJS.ProcessEnv, app: AgentApp = 'green-agent'): Promise<GreenProcess> {
    const main = join(root, 'dist', 'apps', app, 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build it with "npx nx run ${app}:build"`);
    // Node flags for the measured agent, e.g. BENCH_GREEN_NODE_ARGS="--cpu-prof --cpu-prof-dir=logs/bench/profiles".
    const nodeArgs = (process.env.BENCH_GREEN_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
    const child = spawn(process.execPath, [...nodeArgs, '-r', PROBE_PRELOAD, main, '--port', String(port)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const green = new GreenProcess(`http://127.0.0.1:${port}/`, child, app);
    try {
      await green.waitForCard();
    } catch (error) {
      await green.stop();
      throw error;
    }
    return green;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** The last lines the process printed, for error messages. */
  get logTail(): string {
    return this.output;
  }

  /** SIGTERM, so that the agent's shutdown hooks remove its containers and workspaces. */
  async stop(): Promise<void> {
    if (this.exited()) return;
    const exit = once(this.child, 'exit');
    this.child.kill('SIGTERM');
    await exit;
  }

  private exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  private async waitForCard(): Promise<void> {
    const deadline = Date.now() + CARD_DEADLINE_MS;
    while (Date.now() < deadline) {
      if (this.exited()) throw new Error(`the ${this.app} exited before serving its card:\n${this.output}`);
      const ok = await fetch(new URL(AGENT_CARD_PATH, this.url), { signal: AbortSignal.timeout(1000) }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`the ${this.app} served no card within ${CARD_DEADLINE_MS / 1000} s:\n${this.output}`);
  }
}
