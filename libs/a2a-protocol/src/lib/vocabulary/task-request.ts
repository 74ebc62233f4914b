// Driver → green: `Task ID: <source>:<id>` (e.g. `Task ID: arvo:14368`); a bare id means an ARVO task.
// Assessment configs name tasks the same way (`"arvo:14368"`) or as plain numbers (`14368`).

export const DEFAULT_TASK_SOURCE = 'arvo';

/** One benchmark task: where it comes from and its id there. */
export interface TaskRef {
  source: string;
  id: string;
}

const TASK_KEY = /^([A-Za-z][\w.-]*):([\w.-]+)$|^([\w.-]+)$/;
// The key is the whole word after `Task ID:` on that line, so that a malformed key is seen whole
// (`arvo:` must not pass for the bare id `arvo`); punctuation that ends a sentence is not part of it.
const TASK_ID_LINE = /task\s+id\s*:[ \t]*(\S+)/i;
const SENTENCE_END = /[.,;!?]+$/;

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

/**
 * The key of the `Task ID: <key>` line in a driver's text, as written and not yet validated (`arvo:`
 * stays `arvo:`, for the receiver to refuse by name); undefined when the text has no such line.
 */
export function findTaskKey(text: string): string | undefined {
  const key = TASK_ID_LINE.exec(text)?.[1].replace(SENTENCE_END, '');
  return key || undefined;
}

/** Finds `Task ID: <key>` anywhere in a driver's text; undefined when there is none or its key is malformed. */
export function parseTaskRequest(text: string): TaskRef | undefined {
  const key = findTaskKey(text);
  return key === undefined ? undefined : parseTaskKey(key);
}

export function formatTaskRequest(task: TaskRef): string {
  return `Task ID: ${formatTaskKey(task)}`;
}
