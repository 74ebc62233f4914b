// Driver → green: `Task ID: <source>:<id>` (e.g. `Task ID: arvo:14368`); a bare id means an ARVO task.
// Assessment configs name tasks the same way (`"arvo:14368"`) or as plain numbers (`14368`).

export const DEFAULT_TASK_SOURCE = 'arvo';

/** One benchmark task: where it comes from and its id there. */
export interface TaskRef {
  source: string;
  id: string;
}

const TASK_KEY = /^([A-Za-z][\w.-]*):([\w.-]+)$|^([\w.-]+)$/;
const TASK_ID_LINE = /task\s+id\s*:\s*((?:[A-Za-z][\w.-]*:)?[\w.-]+)/i;

/** `arvo:14368`, `sample:1`, `14368` or 14368 → the task; undefined when it is no task key. */
export function parseTaskKey(key: string | number): TaskRef | undefined {
  const match = TASK_KEY.exec(String(key).trim());
  if (!match) return undefined;
  return match[3] !== undefined ? { source: DEFAULT_TASK_SOURCE, id: match[3] } : { source: match[1], id: match[2] };
}

/** The task's key as it appears on the wire, in logs and in results: `arvo:14368`. */
export function formatTaskKey(task: TaskRef): string {
  return `${task.source}:${task.id}`;
}

/** Finds `Task ID: <key>` anywhere in a driver's text. */
export function parseTaskRequest(text: string): TaskRef | undefined {
  const match = TASK_ID_LINE.exec(text);
  return match ? parseTaskKey(match[1]) : undefined;
}

export function formatTaskRequest(task: TaskRef): string {
  return `Task ID: ${formatTaskKey(task)}`;
}
