// `--resume <record folder>`: what the record holds, what a resume runs, and the request that asks for it.
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { formatResumeRequest, type AssessmentRequestBody, type ResumeConfigBody } from '@arvo-rca/a2a-protocol';
import { readRecordResume, RecordError, RecordLayout, recordsFolderOf, type RecordResume } from '@arvo-rca/run-record';

export interface ResumePlan {
  folder: string;
  /** The record's id: its folder's name, by which the green agent finds it under its run directories. */
  recordId: string;
  retryFailed: boolean;
  /** The record as read on this machine, and the tasks a resume runs, as the green agent reads them; absent when the record is not here (a green agent elsewhere reads its own). */
  local?: RecordResume;
}

const NOT_THE_SOLVERS = new Set(['failed', 'interrupted']);
// Task names listed on one line before the rest are only counted.
const NAMES_SHOWN = 8;

/**
 * Reads the record in `folder`. Throws a RecordError that says why when the folder is no record; with
 * `greenElsewhere` (a green agent that already runs, maybe on another machine), a folder that is not here
 * is left to it.
 */
export async function planResume(folder: string, retryFailed: boolean, greenElsewhere: boolean): Promise<ResumePlan> {
  const recordId = basename(resolve(folder));
  if (greenElsewhere && !existsSync(folder)) return { folder, recordId, retryFailed };
  const local = await readRecordResume(folder, retryFailed).catch(async (error: unknown) => {
    throw error instanceof RecordError && error.code === 'RECORD_MISSING'
      ? new RecordError(error.code, `${error.message}${await recordsInside(folder)}`)
      : error;
  });
  return { folder, recordId, retryFailed, local };
}

/** What the runner prints before it resumes: the record, how its tasks were drawn, its tasks done, damaged, kept and to run. */
export function describeResumePlan(plan: ResumePlan): string[] {
  if (!plan.local) return [`record:  ${plan.recordId} is not on this machine; the green agent looks it up in its run directories`];
  const { scan, toRun } = plan.local;
  const { assessment } = scan;
  const solver = `${assessment.solver.name} ${assessment.solver.version}${assessment.solver.model ? `, model ${assessment.solver.model}` : ''}`;
  const kept = [...scan.done.values()].filter((task) => NOT_THE_SOLVERS.has(task.metrics.status) && !toRun.includes(task.task));
  const { draw } = assessment;
  return [
    `record:  ${plan.folder} (${scan.resultKeys.length} task(s), started ${assessment.started_at}, ${assessment.sessions.length} session(s), solver ${solver})`,
    ...(draw
      ? [`drawn:   ${draw.task_ids.length} of ${draw.list ?? 'its task_ids'} (${draw.list_size} tasks) with seed ${draw.seed}; a resume draws nothing`]
      : []),
    `done:    ${scan.done.size} of ${scan.resultKeys.length}${listed([...scan.done.keys()])}`,
    ...scan.damaged.map(({ task, reason }) => `damaged: ${task}: ${reason}; it runs again`),
    ...kept.map(
      (task) => `kept:    ${task.task} ${task.metrics.status}${task.metrics.detail ? ` (${task.metrics.detail})` : ''}; --retry-failed runs it again`,
    ),
    `to run:  ${toRun.length}${listed(toRun)}`,
  ];
}

/**
 * The request for `green`: the record's id, the concurrency when one is given (else the green takes the
 * record's), and with `sendRecord` a request for the record's files.
 */
export function resumeRequest(purple: string, plan: ResumePlan, concurrency?: number, sendRecord = false): AssessmentRequestBody<ResumeConfigBody> {
  return formatResumeRequest({
    purpleUrl: purple,
    recordId: plan.recordId,
    retryFailed: plan.retryFailed,
    sendRecord,
    ...(concurrency === undefined ? {} : { concurrency }),
  });
}

/** The command that goes on with a record, for the terminal: with `--green` when the green agent was one already running. */
export function resumeCommand(folder: string, green?: string): string {
  return `npm run assess -- --resume ${shellWord(folder)}${green ? ` --green ${shellWord(green)}` : ''}`;
}

function listed(tasks: string[]): string {
  if (tasks.length === 0) return '';
  const more = tasks.length > NAMES_SHOWN ? `, ... (${tasks.length - NAMES_SHOWN} more)` : '';
  return ` (${tasks.slice(0, NAMES_SHOWN).join(', ')}${more})`;
}

/** When `folder` is a run directory rather than a record: the records it holds, as a hint. */
async function recordsInside(folder: string): Promise<string> {
  const records = await readdir(recordsFolderOf(folder)).catch(() => [] as string[]);
  return records.length === 0 ? '' : `; it is a run directory, and its records are ${records.map((id) => RecordLayout.of(folder, id).folder).join(', ')}`;
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
