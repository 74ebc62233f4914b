import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { WORKSPACE } from '@arvo-rca/common';

// The host's system trees, read-only and as the host has them: on a merged-/usr host /bin and /lib are
// links into /usr, elsewhere folders of their own.
const SYSTEM_TREES = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

// What of /etc a shell and compilers read: the dynamic linker's cache, the alternatives `cc` and `c++`
// point through, user and group names, name lookup (of localhost: there is no network), the time zone.
const SYSTEM_CONFIG = [
  '/etc/alternatives',
  '/etc/ld.so.cache',
  '/etc/ld.so.conf',
  '/etc/ld.so.conf.d',
  '/etc/passwd',
  '/etc/group',
  '/etc/nsswitch.conf',
  '/etc/hosts',
  '/etc/localtime',
  '/etc/timezone',
  '/etc/os-release',
];

/** The PATH of commands in bubblewrap: the system's own folders, none of the assessor's. */
export const SANDBOX_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The bwrap arguments of a task's local sandbox, built from an allowlist: the system's trees and a few
 * files of /etc read-only, fresh /proc, /dev and /tmp, and the workspace read-write at /workspace.
 * Nothing else of the host is there: no home, no /work, /opt, /var, /run (sockets), no task sources.
 * Every namespace is unshared (so no network), every capability dropped, and the command is pid 1. A `hidden` path that lies
 * inside a mirrored tree anyway (a cache under /usr) is covered: folders by an empty tmpfs, files by
 * /dev/null.
 */
export function bubblewrapArgs(workspaceDir: string, hidden: readonly string[]): string[] {
  return [...systemView(), ...hidden.flatMap(cover), ...['--bind', workspaceDir, WORKSPACE, '--chdir', WORKSPACE], ...ISOLATION];
}

// As root, bwrap would keep every capability of its user namespace; the commands need none. The command
// is pid 1 of its namespace (no reaper of bwrap's in between): when it ends or is killed, the kernel kills
// every other process of the namespace before bwrap sees it gone, and it cannot be stopped from inside.
const ISOLATION = ['--unshare-all', '--as-pid-1', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'arvo-sandbox'];

function systemView(): string[] {
  const mirrored = [...SYSTEM_TREES, ...SYSTEM_CONFIG].flatMap(mirror);
  return ['--dir', '/etc', ...mirrored, '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp'];
}

function mirror(path: string): string[] {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return [];
  return info.isSymbolicLink() ? ['--symlink', readlinkSync(path), path] : ['--ro-bind', path, path];
}

function cover(path: string): string[] {
  const real = realPath(path);
  if (real === undefined || !SYSTEM_TREES.some((tree) => real === tree || real.startsWith(`${tree}/`))) return [];
  return statSync(real).isDirectory() ? ['--tmpfs', real] : ['--ro-bind', '/dev/null', real];
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** Whether bubblewrap can run a sandbox here: `missing` when not installed, `broken` when it cannot make its namespaces. */
export type BubblewrapProbe = { kind: 'works' } | { kind: 'missing' } | { kind: 'broken'; reason: string };

/** Runs `true` in the sandbox's own view and isolation; `command` is for tests. */
export function probeBubblewrap(command = 'bwrap'): BubblewrapProbe {
  const args = [...bubblewrapArgs(tmpdir(), []), '--', 'true'];
  const probe = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000, encoding: 'utf8' });
  if ((probe.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return { kind: 'missing' };
  if (probe.status === 0) return { kind: 'works' };
  return { kind: 'broken', reason: probe.stderr.trim() || probe.error?.message || `it exited with ${probe.status ?? probe.signal}` };
}

export function bubblewrapWorks(): boolean {
  return probeBubblewrap().kind === 'works';
}
