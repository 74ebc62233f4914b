import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { waitForAgentCard } from '@arvo-rca/a2a-protocol';

export const ROOT = resolve(__dirname, '..', '..');

export type AgentName = 'green-agent' | 'purple-agent';

/** An agent this runner started from its build; its console goes to `<run dir>/console/<name>.log`. */
export interface LaunchedAgent {
  name: AgentName;
  url: string;
  child: ChildProcess;
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => done(port));
    });
  });
}

export function launchAgent(name: AgentName, port: number, env: NodeJS.ProcessEnv, runDir: string): LaunchedAgent {
  mkdirSync(join(runDir, 'console'), { recursive: true });
  // Appended: a resume starts the agents again in the run directory of the record.
  const console = createWriteStream(join(runDir, 'console', `${name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', name, 'main.js'), '--port', String(port)], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(console);
  child.stderr?.pipe(console);
  return { name, url: `http://127.0.0.1:${port}/`, child };
}

/** Waits until the agent serves its card, and returns it; fails at once if its process exited. */
export function waitForCard(url: string, child?: ChildProcess): Promise<Record<string, unknown>> {
  const gone = (): string | undefined => (child && child.exitCode !== null ? `it exited with code ${child.exitCode} (see its console log)` : undefined);
  return waitForAgentCard(url, { gone });
}

export async function stopAgent(agent: LaunchedAgent): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  const exited = once(agent.child, 'exit');
  agent.child.kill('SIGTERM');
  await exited;
}
