// A task list file: one task id a line (`arvo:14368`, `sample:1`, or a bare ARVO id `14368`); `#` starts a
// comment that runs to the end of its line, and blank lines are skipped. Whether each id names a task of a
// configured source is for the green agent to say, where the list is used.
import { TASK_ID_PATTERN } from '@arvo-rca/common';
import { TaskListError } from './task-list-error';

/** One task id, with its source or bare: the task-id grammar is common's (TASK_ID_PATTERN for each part). */
function isTaskIdLine(text: string): boolean {
  const parts = text.split(':');
  return parts.length <= 2 && parts.every((part) => TASK_ID_PATTERN.test(part));
}
// Bad lines named one by one before the rest are counted.
const BAD_LINES_NAMED = 10;

/** A list file's ids in its order, and the line each is on. */
interface TaskListText {
  ids: string[];
  lines: number[];
}

/**
 * The ids of a list file's text, in its order. A line that holds anything but one task id is named by its
 * number (its text is not repeated: the file may be one the requester should not read); a list without
 * ids is refused too. `origin` names the list in messages.
 */
export function parseTaskListText(text: string, origin: string): TaskListText {
  const ids: string[] = [];
  const lines: number[] = [];
  const bad: number[] = [];
  const rows = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (const [index, row] of rows.entries()) {
    const content = row.replace(/#.*/, '').trim();
    if (content === '') continue;
    if (isTaskIdLine(content)) {
      ids.push(content);
      lines.push(index + 1);
    } else bad.push(index + 1);
  }
  if (bad.length > 0) {
    throw new TaskListError('TASK_LIST_INVALID', `${origin}: ${badLines(bad)} (one task id a line, such as arvo:14368 or 14368; # starts a comment)`);
  }
  if (ids.length === 0) throw new TaskListError('TASK_LIST_INVALID', `${origin} names no task`);
  return { ids, lines };
}

function badLines(lines: number[]): string {
  if (lines.length === 1) return `line ${lines[0]} is not a task id`;
  const named = lines.slice(0, BAD_LINES_NAMED);
  const more = lines.length - named.length;
  const list = more > 0 ? `${named.join(', ')} and ${more} more` : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
  return `lines ${list} are not task ids`;
}
