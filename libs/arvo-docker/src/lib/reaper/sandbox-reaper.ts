import { readdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { ProcessTable } from '@arvo-rca/common';
import { engineReason, ownerHost, ownerIsAlive, parseOwnerId, taskFolderOwner } from '@arvo-rca/sandbox';
import type { ContainerSummary } from '../engine/container-handle';
import { removeContainer } from '../container/container-removal';
import type { DockerEngine } from '../engine/docker-engine';
import { LABEL_OWNER, LABEL_TASK_FOLDER } from '../engine/labels';

/** `<source>_<id>-<unique>`, the name of a task's folder under TMP_DIR. */
export const TASK_DIR_PATTERN = /^[0-9A-Za-z-]+_[0-9A-Za-z_-]+-[0-9a-f-]{8,36}$/;

/**
 * What `reapContainers` removed: container names, and the task folders those containers were made for;
 * and the dead owners' containers the engine would not remove (a gateway's 403, say), with its reason.
 */
export interface ReapedContainers {
  containers: string[];
  workspaces: string[];
  failed: { container: string; reason: string }[];
}

/**
 * Removes what crashed assessors left behind: containers whose owner process on this host is dead,
 * with the task folders they were made for, task folders whose owner file names such an owner, and task
 * folders older than the longest task may run. Owners on other hosts, and ids of another shape, are
 * never touched: nobody here can tell whether they are alive.
 */
export class SandboxReaper {
  constructor(
    private readonly processes: ProcessTable,
    private readonly host: string = ownerHost(),
  ) {}

  /**
   * Removes the containers of dead owners. The task folder under `tmpDir` that such a container was
   * made for (its label says which) goes too: its owner died mid-task, so nobody will dispose of it, and waiting for the age limit
   * would leave a fresh orphan (sources, builds) on disk for an hour.
   */
  async reapContainers(engine: DockerEngine, tmpDir?: string): Promise<ReapedContainers> {
    const containers = await engine.listContainers([LABEL_OWNER]);
    const removed: ReapedContainers = { containers: [], workspaces: [], failed: [] };
    for (const info of containers) {
      const owner = parseOwnerId(info.labels[LABEL_OWNER] ?? '');
      if (!owner || owner.host !== this.host || ownerIsAlive(owner, this.processes)) continue;
      // One container the engine will not remove is no reason to leave the others (nor their folders).
      const refusal = await removeContainer(engine.container(info.id)).then(
        () => undefined,
        (error: unknown) => engineReason(error),
      );
      if (refusal !== undefined) {
        removed.failed.push({ container: info.name, reason: refusal });
        continue;
      }
      removed.containers.push(info.name);
      const folder = tmpDir === undefined ? undefined : labelledTaskFolder(info, tmpDir);
      if (folder === undefined) continue;
      await rm(folder, { recursive: true, force: true });
      removed.workspaces.push(folder);
    }
    return removed;
  }

  /**
   * Paths of the task folders removed: those under `tmpDir` whose owner file names a dead owner of this
   * host (the owner died mid-task, before its container existed or with no container at all), and
   * those not modified for `maxAgeMs`.
   */
  async reapWorkspaces(tmpDir: string, maxAgeMs: number, now: number = Date.now()): Promise<string[]> {
    const entries = await readdir(tmpDir, { withFileTypes: true }).catch(() => []);
    const removed: string[] = [];
    for (const entry of entries) {
      if (!entry.isDirectory() || !TASK_DIR_PATTERN.test(entry.name)) continue;
      const path = join(tmpDir, entry.name);
      if (!(await this.isOrphan(path)) && !(await isOlderThan(path, maxAgeMs, now))) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    }
    return removed;
  }

  private async isOrphan(taskFolder: string): Promise<boolean> {
    const owner = await taskFolderOwner(taskFolder);
    return owner !== undefined && owner.host === this.host && !ownerIsAlive(owner, this.processes);
  }
}

async function isOlderThan(path: string, maxAgeMs: number, now: number): Promise<boolean> {
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && now - info.mtimeMs > maxAgeMs;
}

/** The task folder the container was made for, when its label names one directly under `tmpDir`. */
function labelledTaskFolder(info: ContainerSummary, tmpDir: string): string | undefined {
  const folder = info.labels[LABEL_TASK_FOLDER];
  if (!folder) return undefined;
  const inside = relative(tmpDir, folder);
  const [name] = inside.split(sep);
  return !isAbsolute(inside) && inside === name && TASK_DIR_PATTERN.test(name) ? join(tmpDir, name) : undefined;
}
