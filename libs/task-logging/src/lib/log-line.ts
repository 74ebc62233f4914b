import type { TaskLogScope } from './task-log-scope';

export type AgentName = 'green' | 'purple';
export type TaskLogLevel = 'error' | 'warn' | 'info' | 'debug';

/** Key of the task scope on a log event: captured when the line is logged, never looked up later. */
export const TASK_SCOPE = Symbol('task-scope');

/** One event on its way through winston, as the Nest logger hands it over. */
export interface LogEvent {
  level: TaskLogLevel;
  message: string;
  /** The logger context: the class that logged. */
  context?: string;
  time: Date;
  [TASK_SCOPE]?: TaskLogScope;
}

// Lines after the first of a multi-line message (command output, a stack) are indented, so that every
// line starting with a timestamp starts an event and nothing a peer sends can pass for one.
const CONTINUATION = '\n  | ';

/**
 * `2026-11-22T10:23:37.123Z INFO  green  3f2a9c1e [TaskRunner] message`: ISO time, level, agent, short
 * context id (`-` outside tasks), logger context, message. A line logged in a task scope that has ended
 * goes to agents.log and says which task it was about.
 */
export function formatFileLine(event: LogEvent, agent: AgentName): string {
  const scope = event[TASK_SCOPE];
  const late = scope?.ended ? `(after the end of task ${scope.task.taskId}) ` : '';
  const head = [event.time.toISOString(), levelLabel(event.level), agent.padEnd(6), (scope?.shortContextId ?? '-').padEnd(8)].join(' ');
  return `${head} ${contextLabel(event)}${late}${body(event.message)}\n`;
}

/** `10:23:37.123 INFO  green  arvo:14368 3f2a9c1e [TaskRunner] message`, the level coloured when asked. */
export function formatConsoleLine(event: LogEvent, agent: AgentName, paint: (level: TaskLogLevel, text: string) => string): string {
  const scope = event[TASK_SCOPE];
  const task = scope ? `${scope.task.taskId} ${scope.shortContextId} ` : '';
  return `${localTime(event.time)} ${paint(event.level, levelLabel(event.level))} ${agent.padEnd(6)} ${task}${contextLabel(event)}${body(event.message)}\n`;
}

function levelLabel(level: TaskLogLevel): string {
  return level.toUpperCase().padEnd(5);
}

function contextLabel(event: LogEvent): string {
  return event.context ? `[${event.context}] ` : '';
}

function body(message: string): string {
  return message
    .replace(/\r?\n+$/, '')
    .split(/\r?\n/)
    .join(CONTINUATION);
}

function localTime(at: Date): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}.${pad(at.getMilliseconds(), 3)}`;
}
