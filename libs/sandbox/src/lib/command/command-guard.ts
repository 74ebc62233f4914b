import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { WORKSPACE } from '@arvo-rca/common';

type GuardVerdict = { kind: 'run'; command: string } | { kind: 'rejected'; reason: string };

/**
 * What stands between the agent's command and the shell. Not an allowlist (the sandbox is the
 * boundary): it rewrites host paths of the task's workspace to `/workspace`, where the sandbox sees
 * them, and refuses commands that name the green agent's private files (e.g. the cache holding
 * `patch.diff`), so that a leak is refused with a reason rather than left to the sandbox's walls.
 */
export class CommandGuard {
  private readonly workspace: RegExp[];
  private readonly privatePaths: string[];

  constructor(workspaceDir: string, privatePaths: readonly string[]) {
    this.workspace = pathVariants(workspaceDir).map((path) => new RegExp(`(?<![\\w.-])${escapeRegExp(path)}(?=$|[^\\w.-])`, 'g'));
    this.privatePaths = privatePaths.flatMap(pathVariants);
  }

  check(command: string): GuardVerdict {
    const rewritten = this.toSandboxPath(command);
    const named = this.privatePaths.find((path) => command.includes(path) || rewritten.includes(path));
    if (named !== undefined) {
      return { kind: 'rejected', reason: `the command refers to ${named}, which holds the assessor's private files` };
    }
    return { kind: 'run', command: rewritten };
  }

  /** Rewrites host paths of the workspace in `text` to the path the sandbox sees. */
  toSandboxPath(text: string): string {
    return this.workspace.reduce((current, pattern) => current.replace(pattern, WORKSPACE), text);
  }
}

// A path as given and as the filesystem resolves it (symlinked /tmp and the like), without a trailing slash.
function pathVariants(path: string): string[] {
  const absolute = resolve(path);
  let real = absolute;
  try {
    real = realpathSync.native(absolute);
  } catch {
    // Not there (yet): the path as given is all we can match.
  }
  return [...new Set([absolute, real])].filter((variant) => variant !== '/');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
