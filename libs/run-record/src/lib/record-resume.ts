// What a resume of a record runs, read from the record alone: the runner shows it before it asks, the green
// agent runs it. One reading for both, so that what the runner says will run is what runs.
import { scanRecord, tasksToRun, type RecordScan } from './record-scan';

export interface RecordResume {
  scan: RecordScan;
  /** The result keys of the tasks a resume runs, in the record's order: those without a usable result, and with `retryFailed` those that failed around the solver or were cut short. */
  toRun: string[];
}

/** Reads the record in `folder`; a RecordError says why when it is none. */
export async function readRecordResume(folder: string, retryFailed: boolean): Promise<RecordResume> {
  const scan = await scanRecord(folder);
  return { scan, toRun: tasksToRun(scan, retryFailed) };
}

/** The task id each result key of the record stands for (`sample:1` for `sample:1#2`, its second run). */
export function recordedTaskIds(scan: RecordScan): ReadonlyMap<string, string> {
  return new Map(scan.resultKeys.map((resultKey, index) => [resultKey, scan.assessment.tasks[index] ?? resultKey]));
}
