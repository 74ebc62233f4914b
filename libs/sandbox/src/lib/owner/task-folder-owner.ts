import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseOwnerId, type OwnerIdentity } from './owner-id';

/**
 * The file in a task folder (`<TMP_DIR>/<source>_<id>-<uuid>/`, beside `workspace/`, out of the agent's
 * reach) naming the process that made the folder. A container names its owner in a label, but a folder
 * exists before its container does (while the sources are extracted) and has none at all in the local
 * sandbox: the file lets a restarted agent tell a dead owner's folder from a live task's.
 */
export const TASK_OWNER_FILE = '.arvo-rca-owner';

/** Writes the owner file of a new task folder; fails if the folder has one already. */
export async function markTaskFolder(taskFolder: string, owner: string): Promise<void> {
  await writeFile(join(taskFolder, TASK_OWNER_FILE), `${owner}\n`, { flag: 'wx' });
}

/** The owner a task folder names; undefined when it names none (or one of another shape). */
export async function taskFolderOwner(taskFolder: string): Promise<OwnerIdentity | undefined> {
  const text = await readFile(join(taskFolder, TASK_OWNER_FILE), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseOwnerId(text.trim());
}
