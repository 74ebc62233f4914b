import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';

const CARD_DEADLINE_MS = 60_000;
const PROBE_DEADLINE_MS = 10_000;
const LOG_TAIL_CHARS = 4000;

export interface LoopDelay {
  p50: number;
  p99: number;
  max: number;
  mean: number;
  samples: number;
}

/** What the probe inside the green process measured over one window. */
export interface ProbeReport {
  loopDelayMs: LoopDelay;
  rssBytes: { baseline: number; peak: number; end: number };
}

interface ProbeAnswer extends Partial<ProbeReport> {
  id: number;
  error?: string;
}

/**
 * The built green agent as a real process, with green-probe.cjs preloaded: the benchmark opens and
 * closes measurement windows in it over the IPC channel.
 */
export class GreenProcess {
  private output = '';
  private nextId = 1;
  private readonly waiting = new Map<number, (answer: ProbeAnswer) => void>();

  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
  ) {
    const keep = (chunk: Buffer): void => {
      this.output = (this.output + chunk.toString()).slice(-LOG_TAIL_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('message', (answer: ProbeAnswer) => {
      this.waiting.get(answer.id)?.(answer);
      this.waiting.delete(answer.id);
    });
  }

  /** Starts `dist/apps/green-agent/main.js` on `port` and waits until it serves its card. */
  static async start(root: string, port: number, env: NodeJS.ProcessEnv): Promise<GreenProcess> {
    const main = join(root, 'dist', 'apps', 'green-agent', 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: build it with "npx nx run green-agent:build"`);
    const child = spawn(process.execPath, ['-r', join(__dirname, 'green-probe.cjs'), main, '--port', String(port)], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const green = new GreenProcess(`http://127.0.0.1:${port}/`, child);
    await green.waitForCard();
    return green;
  }

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** The last lines the process printed, for error messages. */
  get logTail(): string {
    return this.output;
  }

  /** Opens a measurement window named `window` inside the process. */
  async mark(window: string): Promise<void> {
    await this.ask('mark', window);
  }

  /** Closes the window and returns what was measured in it. */
  async report(window: string): Promise<ProbeReport> {
    const answer = await this.ask('report', window);
    if (!answer.loopDelayMs || !answer.rssBytes) throw new Error(`green probe: ${answer.error ?? 'empty report'}`);
    return { loopDelayMs: answer.loopDelayMs, rssBytes: answer.rssBytes };
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

  private ask(kind: 'mark' | 'report', window: string): Promise<ProbeAnswer> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`green probe did not answer "${kind} ${window}" within ${PROBE_DEADLINE_MS} ms (was it preloaded?)`));
      }, PROBE_DEADLINE_MS);
      this.waiting.set(id, (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      this.child.send({ id, kind, window });
    });
  }

  private async waitForCard(): Promise<void> {
    const deadline = Date.now() + CARD_DEADLINE_MS;
    while (Date.now() < deadline) {
      if (this.exited()) throw new Error(`the green agent exited before serving its card:\n${this.output}`);
      const ok = await fetch(new URL(AGENT_CARD_PATH, this.url), { signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) return;
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`the green agent served no card within ${CARD_DEADLINE_MS / 1000} s:\n${this.output}`);
  }
}
