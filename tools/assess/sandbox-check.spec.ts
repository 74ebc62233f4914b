import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NO_ISOLATION_WARNING } from '@arvo-rca/sandbox';
import { ROOT } from './agent-launcher';
import { pickSandbox, sandboxChoice } from './sandbox-check';

interface RunnerRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The runner as `npm start` runs it, on a machine whose PATH holds no bwrap and where no engine answers.
function runRunner(env: Record<string, string>): Promise<RunnerRun> {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const child = spawn(process.execPath, [tsx, '--tsconfig', 'tools/tsconfig.json', 'tools/assess/assess.ts', '--tasks', 'sample:1'], {
    cwd: ROOT,
    env: { PATH: scratch, HOME: scratch, DOCKER_HOST: 'unix:///nonexistent/docker.sock', LOG_RUN_DIR: join(scratch, 'logs'), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'arvo-assess-'));
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the runner on a machine without Docker or bubblewrap', () => {
  it('stops before starting any agent for SANDBOX=auto, saying what to install and how to opt out of isolation', async () => {
    const run = await runRunner({ SANDBOX: 'auto' });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'assess: no sandbox can run here: no Docker engine answers (at DOCKER_HOST or the local socket), and bubblewrap is not installed. ' +
        'Install Docker (apt-get install docker.io), or install bubblewrap (apt-get install bubblewrap), or set SANDBOX=local-unsafe',
    );
    expect(existsSync(join(scratch, 'logs'))).toBe(false);
  }, 60_000);

  it('stops before starting any agent for SANDBOX=local, naming bubblewrap', async () => {
    const run = await runRunner({ SANDBOX: 'local' });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('assess: SANDBOX=local needs bubblewrap, which is not installed: install bubblewrap (apt-get install bubblewrap)');
    expect(existsSync(join(scratch, 'logs'))).toBe(false);
  }, 60_000);
});

describe('pickSandbox', () => {
  it('runs without isolation only for SANDBOX=local-unsafe, with a plain warning for the terminal', async () => {
    expect(await pickSandbox('local-unsafe')).toEqual({
      sandbox: 'local-unsafe',
      line: 'sandbox: local-unsafe, nothing isolated',
      warning: NO_ISOLATION_WARNING,
    });
  });
});

describe('sandboxChoice', () => {
  it('reads SANDBOX as the green agent will: the environment first, then .env, else auto', () => {
    const dir = mkdtempSync(join(scratch, 'env-'));
    expect(sandboxChoice({}, dir)).toBe('auto');

    writeFileSync(join(dir, '.env'), '# opted in\nSANDBOX=local-unsafe\n');
    expect(sandboxChoice({}, dir)).toBe('local-unsafe');
    expect(sandboxChoice({ SANDBOX: 'docker' }, dir)).toBe('docker');
  });
});
