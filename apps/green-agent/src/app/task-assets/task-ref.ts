import { quote, TaskAssetsError } from './task-assets.errors';

declare const checked: unique symbol;

/**
 * A validated task id: `source` names a configured task source, `id` is safe in paths, URLs and image tags.
 * Only parseTaskRef makes one, so that holding one is proof of the check: nothing parses it again.
 */
export interface TaskRef {
  readonly source: string;
  readonly id: string;
  /** `<source>:<id>`, as it appears in requests and logs. */
  readonly key: string;
  readonly [checked]: true;
}

export const TASK_ID_PATTERN = /^[0-9A-Za-z_-]+$/;
const MAX_ID_LENGTH = 128;

/**
 * Parses `<source>:<id>` (a bare id means the default source). Everything is checked here, before the
 * id can reach a path, a URL or an image name; the error names what is wrong.
 */
export function parseTaskRef(text: string, knownSources: readonly string[], defaultSource: string): TaskRef {
  const trimmed = text.trim();
  const colon = trimmed.indexOf(':');
  const source = colon < 0 ? defaultSource : trimmed.slice(0, colon).toLowerCase();
  const id = colon < 0 ? trimmed : trimmed.slice(colon + 1);
  const problem = colon < 0 ? idProblem(id) : sourceProblem(source) ?? idProblem(id, source);
  if (problem) throw new TaskAssetsError('INVALID_TASK_ID', `invalid task id ${quote(text)}: ${problem}; expected <source>:<id> such as arvo:14368`);
  if (!knownSources.includes(source)) {
    throw new TaskAssetsError(
      'UNKNOWN_TASK_SOURCE',
      `unknown task source ${quote(source)} in task id ${quote(text)} (known sources: ${knownSources.join(', ')})`,
    );
  }
  return { source, id, key: `${source}:${id}` } as TaskRef;
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
