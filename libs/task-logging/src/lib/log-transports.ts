import TransportStream from 'winston-transport';
import { format } from 'winston';
import type { AppendOnlyFile } from './append-only-file';
import { formatConsoleLine, formatFileLine, TASK_SCOPE, type AgentName, type LogEvent, type TaskLogLevel } from './log-line';

// winston's key (from triple-beam) for the finished text of an event.
const MESSAGE = Symbol.for('message');

type WinstonEvent = LogEvent & { [MESSAGE]?: string };

/** Where console lines go: errors to `err`, the rest to `out`, coloured or not. */
export interface ConsoleOutput {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  colors: boolean;
}

/**
 * The file side: a line goes to the file of the task scope it was logged in, or to agents.log when it
 * was logged outside any task (or after its task ended). Writing is synchronous (see AppendOnlyFile),
 * so winston calls `next` with the line already written and never queues lines behind one another.
 */
export class TaskFileTransport extends TransportStream {
  constructor(
    private readonly agentsLog: AppendOnlyFile,
    agent: AgentName,
  ) {
    super({ format: format((info) => withText(info, formatFileLine(info as unknown as LogEvent, agent)))() });
  }

  override log(info: WinstonEvent, next: () => void): void {
    const destination = info[TASK_SCOPE]?.destination ?? this.agentsLog;
    destination.append(info[MESSAGE] ?? '');
    next();
  }
}

/** The console side: one human line per event. */
export class ConsoleTransport extends TransportStream {
  constructor(
    private readonly output: ConsoleOutput,
    agent: AgentName,
  ) {
    const colorizer = format.colorize();
    const paint = output.colors ? (level: TaskLogLevel, text: string) => colorizer.colorize(level, text) : (_: TaskLogLevel, text: string) => text;
    super({ format: format((info) => withText(info, formatConsoleLine(info as unknown as LogEvent, agent, paint)))() });
  }

  override log(info: WinstonEvent, next: () => void): void {
    (info.level === 'error' ? this.output.err : this.output.out).write(info[MESSAGE] ?? '');
    next();
  }
}

function withText<T extends object>(info: T, text: string): T {
  return Object.assign(info, { [MESSAGE]: text });
}
