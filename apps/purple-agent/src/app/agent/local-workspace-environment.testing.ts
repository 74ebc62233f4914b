// Test-only: a TaskEnvironment that runs bash on this machine in a temporary workspace laid out like
// the green agent's (src-vul/, <id>_error.txt, shared/), with /workspace in commands pointing there.
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { x as extract } from 'tar';
import { sampleDir } from './sample-tasks.testing';
import type { CommandResult } from '@arvo-rca/sandbox';
import type { TaskEnvironment } from './task-environment';

const WORKSPACE = /\/workspace(?![\w.-])/g;

export interface LocalWorkspaceOptions {
  commandTimeoutMs?: number;
}

export class LocalWorkspaceEnvironment implements TaskEnvironment {
  /** Every command received, as sent (before the path rewrite). */
  readonly commands: string[] = [];
  finishCalls = 0;

  private constructor(
    readonly root: string,
    /** The directory standing in for /workspace. */
    readonly workspace: string,
    private readonly options: LocalWorkspaceOptions,
  ) {}

  /** An empty workspace: shared/ only. */
  static async empty(options: LocalWorkspaceOptions = {}): Promise<LocalWorkspaceEnvironment> {
    const root = await mkdtemp(join(tmpdir(), 'purple-workspace-'));
    const workspace = join(root, 'workspace');
    await mkdir(join(workspace, 'shared'), { recursive: true });
    return new LocalWorkspaceEnvironment(root, workspace, options);
  }

  /** The workspace of bundled sample `id`: its tree extracted, its report as `<id>_error.txt`. */
  static async forSample(id: string, options: LocalWorkspaceOptions = {}): Promise<LocalWorkspaceEnvironment> {
    const environment = await LocalWorkspaceEnvironment.empty(options);
    await extract({ file: join(sampleDir(id), 'repo-vul.tar.gz'), cwd: environment.workspace });
    await copyFile(join(sampleDir(id), 'error.txt'), join(environment.workspace, `${id}_error.txt`));
    return environment;
  }

  execute(command: string): Promise<CommandResult> {
    this.commands.push(command);
    const child = spawn('bash', ['-c', command.replace(WORKSPACE, this.workspace)], { cwd: this.workspace, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    let timedOut: string | undefined;
    const limitMs = this.options.commandTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      timedOut = `command timed out after ${limitMs} ms`;
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, limitMs);
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        const output = Buffer.concat(chunks).toString('utf8').split(this.workspace).join('/workspace');
        resolve({ returncode: timedOut ? -1 : (code ?? (signal ? 128 : 1)), output, ...(timedOut ? { timedOut } : {}) });
      });
    });
  }

  async finish(): Promise<void> {
    this.finishCalls += 1;
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
