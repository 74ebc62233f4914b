import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { SANDBOX_WORKSPACE } from './command-guard';

// Left out of the read-only view of the host: kernel and device trees get fresh instances, /tmp a
// fresh tmpfs, and /run holds sockets (the Docker socket among them) that would undo the sandbox.
const NOT_MIRRORED = new Set(['proc', 'dev', 'sys', 'tmp', 'run', 'workspace']);

/**
 * The bwrap arguments of a task's local sandbox: the host's root read-only, private /tmp, /proc and
 * /dev, the workspace read-write at /workspace, every namespace unshared (so no network), and the
 * given paths hidden (directories under an empty tmpfs, files behind /dev/null).
 */
export function bubblewrapArgs(workspaceDir: string, hidden: readonly string[]): string[] {
  const args: string[] = ['--tmpfs', '/'];
  for (const entry of readdirSync('/', { withFileTypes: true })) {
    if (NOT_MIRRORED.has(entry.name)) continue;
    const path = `/${entry.name}`;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else if (entry.isDirectory()) args.push('--ro-bind', path, path);
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/run');
  for (const path of hidden) {
    if (!existsSync(path) || lstatSync(path).isSymbolicLink()) continue;
    if (statSync(path).isDirectory()) args.push('--tmpfs', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--bind', workspaceDir, SANDBOX_WORKSPACE, '--chdir', SANDBOX_WORKSPACE);
  args.push('--unshare-all', '--die-with-parent', '--new-session', '--hostname', 'arvo-sandbox');
  return args;
}

/** Whether bwrap is installed and can make its namespaces here (user namespaces may be disabled). */
export function bubblewrapWorks(): boolean {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], { stdio: 'ignore', timeout: 10_000 });
  return probe.status === 0;
}
