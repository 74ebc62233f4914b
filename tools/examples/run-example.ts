// `npm run example -- <reply|terminal-bench> [runner flags]`: starts that example solver from examples/ on a
// free port, runs the runner (`npm run assess`) against it, on the bundled samples unless `--tasks` says
// otherwise, then stops the solver; the exit status is the runner's.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, openSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DIALECTS, TERMINAL_BENCH_TAG } from '@arvo-rca/a2a-protocol';
import { freePort, ROOT, waitForCard } from '../assess/agent-launcher';

// Each example goes by the dialect it speaks (the terminal-bench one by the tag such solvers carry).
const EXAMPLES: Record<string, string> = { [DIALECTS.reply]: 'reply-solver.ts', [TERMINAL_BENCH_TAG]: 'terminal-bench-solver.ts' };

async function main(): Promise<number> {
  const [name, ...runnerArgs] = process.argv.slice(2);
  const file = EXAMPLES[name ?? ''];
  if (!file) {
    console.error(`usage: npm run example -- <${Object.keys(EXAMPLES).join('|')}> [--tasks sample:1,...] [--concurrency N]`);
    return 2;
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  // The solver's console (each command it sends, the loc.json it writes) goes to a file, beside the runner's logs.
  const logDir = process.env['LOG_DIR'] ?? join(ROOT, 'logs');
  const log = join(logDir, `example-${name}.log`);
  mkdirSync(logDir, { recursive: true });
  const solverConsole = openSync(log, 'w');
  const solver = spawn(process.execPath, [tsx, join(ROOT, 'examples', file), '--port', String(port)], {
    cwd: ROOT,
    stdio: ['ignore', solverConsole, solverConsole],
  });
  try {
    await waitForCard(url, solver);
    console.log(`example solver: examples/${file} at ${url} (its console: ${relative(ROOT, log)})`);
    const runner = spawn(process.execPath, [tsx, '--tsconfig', 'tools/tsconfig.json', 'tools/assess/assess.ts', '--purple', url, ...runnerArgs], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    const [code] = (await once(runner, 'exit')) as [number | null];
    return code ?? 1;
  } finally {
    if (solver.exitCode === null) {
      const exited = once(solver, 'exit');
      solver.kill('SIGTERM');
      await exited;
    }
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`example: ${error.message}`);
    process.exit(1);
  },
);
