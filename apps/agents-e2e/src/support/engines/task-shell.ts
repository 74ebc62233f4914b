import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecResult } from '@arvo-rca/a2a-protocol';
import { SAMPLES_DIR } from '../processes/agent-processes';

/**
 * A task's shell on this host: bash in a directory. With `mountedAt`, the directory stands for that path of the
 * task's container (`/workspace`): commands name that path and are run against the directory, and their output
 * names it again, as a bind mount would show it.
 */
export class TaskShell {
  constructor(
    readonly dir: string,
    private readonly mountedAt?: string,
  ) {}

  /**
   * A workspace laid out as the green agent lays out bundled sample `n`'s /workspace (its tree under src-vul/, the
   * crash report as error.txt, shared/ for loc.json), in a temporary directory that {@link remove} deletes.
   */
  static forSample(n: number): TaskShell {
    const dir = mkdtempSync(join(tmpdir(), `sample-${n}-workspace-`));
    execFileSync('tar', ['-xzf', join(SAMPLES_DIR, String(n), 'repo-vul.tar.gz'), '-C', dir]);
    copyFileSync(join(SAMPLES_DIR, String(n), 'error.txt'), join(dir, 'error.txt'));
    mkdirSync(join(dir, 'shared'));
    return new TaskShell(dir, '/workspace');
  }

  /** Runs one command with bash, killed after `timeoutS` (exit code 124 then, as `timeout` says). */
  exec(command: string, timeoutS: number): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', this.toHost(command)], { cwd: this.dir, timeout: timeoutS * 1000, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ kind: 'exec_result', exit_code: code ?? 124, stdout: this.toTask(stdout), stderr: this.toTask(stderr) }));
    });
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  private toHost(text: string): string {
    return this.mountedAt ? text.replace(new RegExp(`${this.mountedAt}(?![\\w.-])`, 'g'), this.dir) : text;
  }

  private toTask(text: string): string {
    return this.mountedAt ? text.split(this.dir).join(this.mountedAt) : text;
  }
}
