import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogChild } from './log-processes.testing';
import { CURRENT_RUN_FILE } from './run-directory-resolver';

jest.setTimeout(180_000);

/**
 * Starts `count` agent processes, releases them at the same moment, and returns the directories they
 * chose. Each child's clock is a few seconds apart, so two children that both created a directory
 * would show as two names instead of hiding behind the same second.
 */
async function startTogether(logDir: string, count: number): Promise<string[]> {
  const children = Array.from({ length: count }, (_, i) => new LogChild(['resolve', logDir, i % 2 === 0 ? 'green' : 'purple', String(i * 3)]));
  try {
    await Promise.all(children.map((child) => child.line(/^loaded$/)));
    const startAt = Date.now() + 500;
    children.forEach((child) => child.send(`go ${startAt}`));
    const printed = await Promise.all(children.map((child) => child.line(/^\{"runDirectory"/)));
    const exits = await Promise.all(children.map((child) => child.exited));
    expect(exits.every((exit) => exit.code === 0)).toBe(true);
    return printed.map((line) => (JSON.parse(line) as { runDirectory: string }).runDirectory);
  } finally {
    children.forEach((child) => child.process.kill('SIGKILL'));
  }
}

function pidOfAnExitedProcess(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('run directory shared by real agent processes', () => {
  const roots: string[] = [];
  const freshLogDir = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'task-logging-procs-'));
    roots.push(root);
    return join(root, 'logs');
  };
  afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

  it('puts two agents started at the same moment without LOG_RUN_DIR into one run directory, round after round', async () => {
    for (let round = 0; round < 4; round++) {
      const logDir = freshLogDir();
      const [green, purple] = await startTogether(logDir, 2);

      expect(green).toBe(purple);
      expect(readdirSync(logDir).sort()).toEqual([CURRENT_RUN_FILE, green.slice(logDir.length + 1)].sort());
      const agentsLog = readFileSync(join(green, 'agents.log'), 'utf8');
      expect(agentsLog).toMatch(/ green +- +\[Child\] started in /);
      expect(agentsLog).toMatch(/ purple - {8}\[Child\] started in /);
    }
  });

  it('replaces a stale record once when several agents start together after an old run, leaving no claim behind', async () => {
    const logDir = freshLogDir();
    mkdirSync(join(logDir, 'log_2026-01-01_00-00-00'), { recursive: true });
    const staleRecord = { run: 'log_2026-01-01_00-00-00', createdAt: '2026-01-01T00:00:00.000Z', creator: { host: hostname(), pid: pidOfAnExitedProcess() } };
    writeFileSync(join(logDir, CURRENT_RUN_FILE), JSON.stringify(staleRecord));

    const chosen = await startTogether(logDir, 4);

    expect(new Set(chosen).size).toBe(1);
    expect(chosen[0]).not.toContain('log_2026-01-01_00-00-00');
    expect(readdirSync(logDir).sort()).toEqual([CURRENT_RUN_FILE, 'log_2026-01-01_00-00-00', chosen[0].slice(logDir.length + 1)].sort());
    expect(JSON.parse(readFileSync(join(logDir, CURRENT_RUN_FILE), 'utf8')).run).toBe(chosen[0].slice(logDir.length + 1));
  });
});
