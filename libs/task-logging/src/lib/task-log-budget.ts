import { formatBytes } from '@arvo-rca/common';

/** What the logs of one agent write at most, whatever the peers send. */
export interface LogBounds {
  /** LOG_LINE_MAX_BYTES: the most of one line's text written; a longer one is cut to its head and says how much it left out. */
  lineBytes: number;
  /** LOG_TASK_MAX_BYTES: what one task may write to its log and the console; past it, its lines are counted, not written. */
  taskBytes: number;
}

// A full command output (100 KiB, MAX_OUTPUT_BYTES) still fits a line; a hostile solver's flood does not fit a task.
export const DEFAULT_LOG_BOUNDS: LogBounds = { lineBytes: 128 * 1024, taskBytes: 8 * 1024 * 1024 };

// What a line costs besides its text: time, level, agent, context id and logger name.
const LINE_OVERHEAD_BYTES = 64;

/** Whether a task's line is written: `write`, `last` (written, and the bound is reached with it) or `count` (counted only). */
export type BudgetVerdict = 'write' | 'last' | 'count';

/**
 * One task's share of the log. A task whose peer floods it (60 KB status texts, as fast as it can) writes
 * up to its bound and then only counts what it would have written, so that no solver can fill the host's
 * disk or a terminal through our own logs; what was left out is said once when the task ends.
 */
export class TaskLogBudget {
  private written = 0;
  private leftOutLines = 0;
  private leftOutBytes = 0;

  constructor(private readonly maxBytes: number) {}

  admit(textBytes: number): BudgetVerdict {
    const bytes = textBytes + LINE_OVERHEAD_BYTES;
    if (this.maxBytes > 0 && this.written >= this.maxBytes) {
      this.leftOutLines += 1;
      this.leftOutBytes += bytes;
      return 'count';
    }
    this.written += bytes;
    return this.maxBytes > 0 && this.written >= this.maxBytes ? 'last' : 'write';
  }

  /** The line written when the bound is reached. */
  reachedNote(): string {
    return `this task's log reached its bound of ${formatBytes(this.maxBytes)} (LOG_TASK_MAX_BYTES): its further lines are counted, not written`;
  }

  /** The line written at the task's end when lines were left out; undefined when none were. */
  leftOutNote(): string | undefined {
    if (this.leftOutLines === 0) return undefined;
    const lines = this.leftOutLines === 1 ? '1 line' : `${this.leftOutLines} lines`;
    return `${lines} (${formatBytes(this.leftOutBytes)}) of this task were left out of its log, past its bound of ${formatBytes(this.maxBytes)} (LOG_TASK_MAX_BYTES)`;
  }
}
