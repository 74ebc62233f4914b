import type Docker from 'dockerode';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { removeContainer } from './container-removal';
import { LABEL_OWNER } from './labels';
import { ownerIsAlive, parseOwnerId } from './owner-id';
import type { ProcessTable } from './process-table';

/** `<source>_<id>-<unique>`, the name of a task's folder under TMP_DIR (SPEC section 3.2). */
export const TASK_DIR_PATTERN = /^[0-9A-Za-z-]+_[0-9A-Za-z_-]+-[0-9a-f-]{8,36}$/;

/**
 * Removes what crashed assessors left behind: containers whose owner process on this host is dead,
 * and task folders older than the longest task may run. Owners on other hosts, and labels of another
 * shape, are never touched: nobody here can tell whether they are alive.
 */
export class SandboxReaper {
  constructor(
    private readonly processes: ProcessTable,
    private readonly host: string = hostname(),
  ) {}

  /** Names of the containers removed. */
  async reapContainers(docker: Docker): Promise<string[]> {
    const containers = await docker.listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
    const removed: string[] = [];
    for (const info of containers) {
      const owner = parseOwnerId(info.Labels[LABEL_OWNER] ?? '');
      if (!owner || owner.host !== this.host || ownerIsAlive(owner, this.processes)) continue;
      await removeContainer(docker.getContainer(info.Id));
      removed.push(info.Names[0]?.replace(/^\//, '') ?? info.Id);
    }
    return removed;
  }

  /** Paths of the task folders removed: those under `tmpDir` not modified for `maxAgeMs`. */
  async reapWorkspaces(tmpDir: string, maxAgeMs: number, now: number = Date.now()): Promise<string[]> {
    const entries = await readdir(tmpDir, { withFileTypes: true }).catch(() => []);
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !TASK_DIR_PATTERN.test(entry.name)) continue;
      const path = join(tmpDir, entry.name);
      const info = await stat(path).catch(() => undefined);
      if (!info || now - info.mtimeMs <= maxAgeMs) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    }
    return removed;
  }
}
