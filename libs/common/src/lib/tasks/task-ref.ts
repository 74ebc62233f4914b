// A task is named `<source>:<id>` (`arvo:14368`) wherever it goes: requests, logs, records. A bare id is a
// task of the default source, as assessment configs list them.
import { CodedError } from '../coded-error';
import { quote } from '../text/quote';

declare const checked: unique symbol;

export const DEFAULT_TASK_SOURCE = 'arvo';
export const TASK_ID_PATTERN = /^[0-9A-Za-z_-]+$/;
const MAX_ID_LENGTH = 128;

type TaskRefErrorCode = 'INVALID_TASK_ID' | 'UNKNOWN_TASK_SOURCE';
export class TaskRefError extends CodedError<TaskRefErrorCode> {}

/**
 * A validated task: `source` is one of the known sources, `id` is safe in paths, URLs and image tags.
 * Only parseTaskRef makes one, where a request arrives, so that holding one is proof of the check:
 * nothing parses it again.
 */
export interface TaskRef {
  readonly source: string;
  readonly id: string;
  /** `<source>:<id>`, as it appears in requests, logs and records. */
  readonly taskId: string;
  readonly [checked]: true;
}

/**
 * Parses `<source>:<id>` (a bare id means the default source). Everything is checked here, before the
 * id can reach a path, a URL or an image name; the error names what is wrong.
 */
export function parseTaskRef(text: string, knownSources: readonly string[], defaultSource = DEFAULT_TASK_SOURCE): TaskRef {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const source = colon < 0 ? defaultSource : trimmed.slice(0, colon).toLowerCase();
  const id = colon < 0 ? trimmed : trimmed.slice(colon + 1);
  const problem = colon < 0 ? idProblem(id) : (sourceProblem(source) ?? idProblem(id, source));
  if (problem) throw new TaskRefError('INVALID_TASK_ID', `invalid task id ${quote(text)}: ${problem}; expected <source>:<id> such as arvo:14368`);
  if (!knownSources.includes(source)) {
    throw new TaskRefError('UNKNOWN_TASK_SOURCE', `unknown task source ${quote(source)} in task id ${quote(text)} (known sources: ${knownSources.join(', ')})`);
  }
  return { source, id, taskId: `${source}:${id}` } as TaskRef;
}

/** Whether text is a task id in its written form, `<source>:<id>`, each part letters, digits, `_` or `-`: what may become a file name. */
export function isTaskId(text: string): boolean {
  const colon = text.indexOf(':');
  const [source, id] = [text.slice(0, colon), text.slice(colon + 1)];
  return colon > 0 && TASK_ID_PATTERN.test(source) && idProblem(id) === undefined;
}

function sourceProblem(source: string): string | undefined {
  return source === '' ? 'the source before ":" is empty' : undefined;
}

function idProblem(id: string, source?: string): string | undefined {
  if (id === '') return source === undefined ? 'it is empty' : `the id after ${quote(`${source}:`)} is empty`;
  if (id.length > MAX_ID_LENGTH) return `the id is longer than ${MAX_ID_LENGTH} characters`;
  if (!TASK_ID_PATTERN.test(id)) return 'the id may hold only letters, digits, "_" and "-"';
  return undefined;
}
