import type { TaskLog } from './viewer-api';

// `<time> <LEVEL> <agent> <context> ...`: the context is the first 8 characters of the task's context id.
const EVENT = /^\d{4}-\d\d-\d\dT\S+ +\S+ +\S+ +(\S+) /;

/**
 * The events of one task's context from its log file, which holds every run of that task id in the run
 * directory; lines after an event's first (`  | ...`) go with it. When no event carries the context (a log
 * of another layout), the whole text is shown.
 */
export function taskLog(text: string, contextId: string, cut: boolean): TaskLog {
  const context = contextId.slice(0, 8).replace(/[^0-9A-Za-z_.-]/g, '_') || '?';
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  // A log read from its end may begin in the middle of a line: that line is dropped.
  if (cut) lines.shift();
  const kept: string[] = [];
  let keeping = false;
  for (const line of lines) {
    const event = EVENT.exec(line);
    if (event) keeping = event[1] === context;
    if (keeping) kept.push(line);
  }
  const shown = kept.length > 0 ? kept : lines;
  return { text: shown.join('\n'), context, lines: shown.length, total_lines: lines.length, cut };
}
