import { inspect } from 'node:util';
import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import type { Logger as WinstonLogger } from 'winston';
import { textHead } from '@arvo-rca/common';
import { TASK_SCOPE, type LogEvent, type TaskLogLevel } from './log-line';
import type { TaskLogScope } from './task-log-scope';

const NEST_TO_FILE_LEVEL: Record<NestLogLevel, TaskLogLevel> = {
  fatal: 'error',
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'debug',
};

/** The logger context of the lines the bounds themselves write. */
export const BOUNDS_CONTEXT = 'TaskLogging';

/** A stack as Nest hands it over: `Error: ...\n    at f (file.ts:1:2)`. */
const STACK = /^(.)+\n\s+at .+:\d+:\d+/;

/**
 * The app's whole Nest logger (`app.useLogger`). Each call takes the task scope of the code that
 * logged, right there, and hands winston one event; which file the line lands in follows from it.
 */
export class TaskAwareNestLogger implements LoggerService {
  private enabled: ReadonlySet<NestLogLevel> | undefined;

  constructor(
    private readonly winston: WinstonLogger,
    private readonly currentScope: () => TaskLogScope | undefined,
    private readonly clock: () => Date,
    /** LOG_LINE_MAX_BYTES: the most of one line's text written. */
    private readonly lineBytes: number,
  ) {}

  // One method per Nest level, each the same call with its level.
  readonly log = this.at('log');
  readonly error = this.at('error');
  readonly warn = this.at('warn');
  readonly debug = this.at('debug');
  readonly verbose = this.at('verbose');
  readonly fatal = this.at('fatal');

  /** Nest's `app.useLogger(['error', 'warn'])`: only these levels pass, on top of LOG_LEVEL. */
  setLogLevels(levels: NestLogLevel[]): void {
    this.enabled = new Set(levels);
  }

  private at(level: NestLogLevel): (message: unknown, ...params: unknown[]) => void {
    return (message, ...params) => this.write(level, message, params);
  }

  private write(level: NestLogLevel, message: unknown, params: unknown[]): void {
    if (this.enabled && !this.enabled.has(level)) return;
    const { context, stack, extras } = splitParams(level, params);
    const described = [message, ...extras].map(describe).join(' ');
    const text = textHead(stack && !described.includes(stack) ? `${described}\n${stack}` : described, this.lineBytes);
    const scope = this.currentScope();
    // A task's lines past its bound are counted, not written (TaskLogBudget), to the file and the console alike.
    const verdict = scope?.budget.admit(Buffer.byteLength(text)) ?? 'write';
    if (verdict === 'count') return;
    const time = this.clock();
    this.winston.log({ level: NEST_TO_FILE_LEVEL[level], message: text, context, time, [TASK_SCOPE]: scope } satisfies LogEvent);
    if (verdict === 'last' && scope)
      this.winston.log({ level: 'warn', message: scope.budget.reachedNote(), context: BOUNDS_CONTEXT, time, [TASK_SCOPE]: scope } satisfies LogEvent);
  }
}

/** Nest's calling convention: the context comes last; `error` and `fatal` may carry a stack first. */
function splitParams(level: NestLogLevel, params: unknown[]): { context?: string; stack?: string; extras: unknown[] } {
  const rest = [...params];
  let stack: string | undefined;
  if ((level === 'error' || level === 'fatal') && rest.length > 0 && (rest[0] === undefined || isStack(rest[0]))) {
    stack = rest.shift() as string | undefined;
  }
  const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
  return { context, stack, extras: rest };
}

function isStack(value: unknown): boolean {
  return typeof value === 'string' && STACK.test(value);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
  return inspect(value, { depth: 5, breakLength: Infinity });
}
