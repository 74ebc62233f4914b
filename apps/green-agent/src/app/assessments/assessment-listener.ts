// What an assessment tells its requester as it runs, and what it ends with.
import type { TaskProgressLine } from '@arvo-rca/a2a-protocol';
import type { AssessmentResult } from '@arvo-rca/results';
import type { AssessmentFile, TaskFolder } from '@arvo-rca/run-record';

/** How an assessment ended: its Result, and where it is recorded. */
export interface AssessmentReport {
  result: AssessmentResult;
  /** The record's folder, and the Result's file in it. */
  recordDir: string;
  file: string;
}

/** Who hears of an assessment as it runs: each task's lines, and the record's folder once it exists. */
export interface AssessmentListener {
  report: (line: TaskProgressLine) => void;
  recorded: (recordDir: string) => void;
  /**
   * When set, the record's files as they are written: `assessment.json` as a session begins and ends, each
   * task's folder as it ends (on a resume, the tasks of earlier sessions first).
   */
  wrote?: (write: RecordWrite) => void;
  /**
   * With `wrote`: resolves true once the requester has taken what was written but the last piece; false, at
   * once, when it takes no more (it went away, or `signal` aborted). A resume awaits it before each task it
   * sends again, so that a slow requester holds up the sending, not this process's memory.
   */
  taken?: (signal?: AbortSignal) => Promise<boolean>;
}

export type RecordWrite = { kind: 'assessment'; assessment: AssessmentFile } | { kind: 'task'; task: TaskFolder };
