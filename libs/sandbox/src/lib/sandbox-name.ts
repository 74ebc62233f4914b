import { randomBytes } from 'node:crypto';

/** `arvo_<id>_<short-unique>`: two tasks on the same id get two containers (or local sandboxes of the same shape). */
export function containerName(task: string, unique: string = randomBytes(4).toString('hex')): string {
  const id = task.slice(task.lastIndexOf(':') + 1).replace(/[^A-Za-z0-9_.-]/g, '_');
  return `arvo_${id}_${unique}`;
}
