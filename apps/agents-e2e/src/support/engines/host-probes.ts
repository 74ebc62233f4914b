import { spawn } from 'node:child_process';

/** What a host process printed and how it ended. */
export interface HostRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

/** Runs a program on the host and collects its output; never throws on a non-zero exit. */
export function runOnHost(argv: readonly string[]): Promise<HostRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ stdout, stderr, status }));
  });
}

/** The host user with no rights of its own: what any local account could do, and nothing more. */
export const NOBODY = { user: 'nobody', uid: 65534 } as const;

/** Runs a program on the host as `nobody`, with no supplementary groups and no capabilities (needs root). */
export function runAsNobody(argv: readonly string[]): Promise<HostRun> {
  return runOnHost(['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.uid}`, '--clear-groups', '--inh-caps=-all', ...argv]);
}

/** Whether this process may switch to other users (the probes as `nobody` need it). */
export function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/** `it` for a test that needs root: skipped loudly elsewhere, and a failure under CI=true, which may not skip. */
export function itAsRoot(name: string, body: () => Promise<void>, timeoutMs: number): void {
  if (runsAsRoot()) return it(name, body, timeoutMs);
  if (process.env['CI'] === 'true') {
    return it(name, () => {
      throw new Error('this test runs host processes as another user and needs root, and CI=true forbids skipping it');
    });
  }
  console.warn(`SKIPPED, not root: ${name}`);
  it.skip(name, body);
}

/** Every setuid file under `dirs` (as root sees them: all of them). */
export async function setuidFilesUnder(dirs: readonly string[]): Promise<string[]> {
  const run = await runOnHost(['find', ...dirs, '-perm', '-4000', '-print']);
  if (run.status !== 0) throw new Error(`find under ${dirs.join(' ')} failed (${run.status}): ${run.stderr}`);
  return lines(run.stdout);
}

/** A setuid file `nobody` can reach on the host, and the sha256 of its content. */
export interface ReachableSetuid {
  path: string;
  sha256: string;
}

/**
 * Every setuid file `nobody` can reach anywhere on the host (all of `/` but /proc and /sys), found and
 * hashed by `nobody` itself: what an unprivileged local user could run.
 */
export async function setuidFilesNobodyReaches(): Promise<ReachableSetuid[]> {
  const script =
    'find / \\( -path /proc -o -path /sys \\) -prune -o -type f -perm -4000 -print 2>/dev/null | while IFS= read -r f; do sha256sum "$f" 2>/dev/null; done; true';
  const run = await runAsNobody(['sh', '-c', script]);
  if (run.status !== 0) throw new Error(`the scan as nobody failed (${run.status}): ${run.stderr}`);
  return lines(run.stdout).map((line) => {
    const [sha256, ...path] = line.split('  ');
    return { sha256, path: path.join('  ') };
  });
}

/** The effective uid a shell at `path`, run by `nobody` with `-p` (keep privileges), reports; '' if it does not run. */
export async function effectiveUidThrough(path: string): Promise<string> {
  return (await runAsNobody([path, '-p', '-c', 'id -u'])).stdout.trim();
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.length > 0);
}
