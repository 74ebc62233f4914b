import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitForAgentCard } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';

export const ROOT = resolve(__dirname, '..', '..', '..', '..', '..');
export const SAMPLES_DIR = join(ROOT, 'samples');

export type AgentName = 'green-agent' | 'purple-agent';

/** One agent started from its build as a real process. */
export class AgentProcess {
  private output = '';

  constructor(
    readonly name: AgentName,
    readonly url: string,
    readonly child: ChildProcess,
  ) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /** What the process printed so far (for failure messages). */
  get log(): string {
    return this.output;
  }

  /**
   * Settles once what the process printed matches `pattern`; fails after `ms`, with its last lines. An agent's
   * console lines go out up to 100 ms after they are logged (docs/logs.md): a line logged just before an
   * answer may come after it.
   */
  async printed(pattern: RegExp, ms = 5_000): Promise<void> {
    const until = Date.now() + ms;
    while (!pattern.test(this.output)) {
      if (Date.now() > until) throw new Error(`${this.name} printed no ${pattern} within ${ms} ms; its last lines:\n${this.output.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  get exited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    if (this.exited) return;
    const exit = once(this.child, 'exit');
    this.child.kill(signal);
    await exit;
  }
}

export interface AgentStartOptions {
  /**
   * A command the agent's own command line is appended to, which must end by exec'ing it (so that the
   * child's pid stays the agent's): `unshare ... sh -c '... && exec "$0" "$@"'`, say.
   */
  prefix?: readonly string[];
}

/** Starts one agent on a free port and waits until it serves its card. */
export async function startAgent(name: AgentName, env: NodeJS.ProcessEnv, port?: number, options: AgentStartOptions = {}): Promise<AgentProcess> {
  const chosen = port ?? (await freePort());
  const [program, ...args] = [...(options.prefix ?? []), process.execPath, join(ROOT, 'dist', 'apps', name, 'main.js'), '--port', String(chosen)];
  const child = spawn(program, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, CI: process.env['CI'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const agent = new AgentProcess(name, `http://127.0.0.1:${chosen}/`, child);
  await waitForCard(agent);
  return agent;
}

async function waitForCard(agent: AgentProcess): Promise<void> {
  const gone = (): string | undefined => (agent.exited ? `${agent.name} exited` : undefined);
  await waitForAgentCard(agent.url, { intervalMs: 100, gone }).catch((error: Error) => {
    throw new Error(`${error.message}\n${agent.log}`);
  });
}

/** A scratch area for one suite: task workspaces, cache and logs, removed at the end. */
export class Scratch {
  readonly dir = mkdtempSync(join(tmpdir(), 'arvo-rca-e2e-'));
  readonly tasks = join(this.dir, 'tasks');
  readonly cache = join(this.dir, 'cache');
  readonly logs = join(this.dir, 'logs');
  readonly runDir = join(this.logs, 'log_e2e');

  constructor() {
    mkdirSync(this.tasks, { recursive: true });
    mkdirSync(this.runDir, { recursive: true });
  }

  /** The environment both agents share: one run directory, the scratch folders, the samples. */
  env(): NodeJS.ProcessEnv {
    return { TMP_DIR: this.tasks, CACHE_DIR: this.cache, LOG_DIR: this.logs, LOG_RUN_DIR: this.runDir, SAMPLES_DIR };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
