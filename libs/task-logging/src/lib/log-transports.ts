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

/** How long a console line may wait to go out with the lines after it. */
export const CONSOLE_DELAY_MS = 100;
/** Lines waiting past this many characters go out at once. */
const CONSOLE_PENDING_MAX = 64 * 1024;

/**
 * The console's lines on their way out: those to `out` go together, at most CONSOLE_DELAY_MS after the
 * first of them, in one write. A write to a pipe or a terminal is a synchronous write(2) that wakes its
 * reader, and on a machine whose cores are all busy that wake-up cost the green agent's event loop more
 * than anything else it logs (at 128 tasks, two lines a step, each in a turn of its own). An error goes
 * out at once, after the lines before it. At `exit` and once `close` is called (the agent's shutdown,
 * before Nest ends the process by the signal it got, which emits no `exit`) every line waiting goes out,
 * and from then on each line goes out as it comes: a shutdown's lines are never lost. A process killed
 * outright loses at most the console's last CONSOLE_DELAY_MS; its log files have every line.
 */
export class ConsoleLines {
  private pending = '';
  private timer: NodeJS.Timeout | undefined;
  private direct = false;

  constructor(private readonly output: ConsoleOutput) {
    if (OPEN_CONSOLES.size === 0) process.on('exit', flushAll);
    OPEN_CONSOLES.add(this);
  }

  out(text: string): void {
    if (this.direct) {
      this.output.out.write(text);
      return;
    }
    this.pending += text;
    if (this.pending.length >= CONSOLE_PENDING_MAX) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), CONSOLE_DELAY_MS).unref();
  }

  err(text: string): void {
    this.flush();
    this.output.err.write(text);
  }

  /** Writes every line waiting, now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.output.out.write(text);
  }

  /** Writes every line waiting, and each later line as it comes. */
  close(): void {
    this.flush();
    this.direct = true;
    OPEN_CONSOLES.delete(this);
    if (OPEN_CONSOLES.size === 0) process.off('exit', flushAll);
  }
}

// The consoles whose lines may wait: one `exit` listener writes them all.
const OPEN_CONSOLES = new Set<ConsoleLines>();

function flushAll(): void {
  for (const lines of OPEN_CONSOLES) lines.flush();
}

/** The console side: one human line per event. */
export class ConsoleTransport extends TransportStream {
  constructor(
    private readonly lines: ConsoleLines,
    colors: boolean,
    agent: AgentName,
  ) {
    const colorizer = format.colorize();
    const paint = colors ? (level: TaskLogLevel, text: string) => colorizer.colorize(level, text) : (_: TaskLogLevel, text: string) => text;
    super({ format: format((info) => withText(info, formatConsoleLine(info as unknown as LogEvent, agent, paint)))() });
  }

  override log(info: WinstonEvent, next: () => void): void {
    const text = info[MESSAGE] ?? '';
    if (info.level === 'error') this.lines.err(text);
    else this.lines.out(text);
    next();
  }
}

function withText<T extends object>(info: T, text: string): T {
  return Object.assign(info, { [MESSAGE]: text });
}
