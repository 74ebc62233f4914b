// A resume as both sides know it: the runner writes it (`formatResumeRequest`), the green agent reads it
// (`readResumeConfig`), and what one writes is what the other reads.
import type { AssessmentRequestBody, ResumeConfigBody } from './assessment-request-body';
import { MAX_CONCURRENCY } from './assessment-request-body';

/** A request to go on with a run record: the tasks come from the record. */
export interface ResumeRequest {
  purpleUrl: string;
  /** The record's id: its folder's name under `assessments/`. */
  recordId: string;
  /** Also run again the tasks that failed around the solver or were cut short. */
  retryFailed: boolean;
  /** The record's own concurrency unless the request gives one. */
  concurrency?: number;
  /** Send the run record's files, the earlier sessions' tasks first (`config.send_record`). */
  sendRecord: boolean;
}

export type ResumeReading = { kind: 'resume'; resume: ResumeRequest } | { kind: 'invalid'; problems: string[] };

const RECORD_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/** The request body of a resume: the concurrency only when one is given, `send_record` only when asked. */
export function formatResumeRequest(resume: ResumeRequest): AssessmentRequestBody<ResumeConfigBody> {
  return {
    participants: { purple_agent: resume.purpleUrl },
    config: {
      resume: resume.recordId,
      retry_failed: resume.retryFailed,
      ...(resume.concurrency === undefined ? {} : { concurrency: resume.concurrency }),
      ...(resume.sendRecord ? { send_record: true } : {}),
    },
  };
}

/**
 * `config.resume` (a record id), `config.retry_failed`, `config.concurrency` and `config.send_record`; nothing
 * else goes with them. `problems` are those found before (the participants'); every one is named.
 */
export function readResumeConfig(config: Record<string, unknown>, purpleUrl: string | undefined, problems: string[]): ResumeReading {
  const { resume, retry_failed: retryFailed, concurrency, send_record: sendRecord, ...rest } = config;
  if (typeof resume !== 'string' || !RECORD_ID.test(resume))
    problems.push(`config.resume (${JSON.stringify(resume)}) must be the id of a run record, the name of its folder under assessments/`);
  if (retryFailed !== undefined && typeof retryFailed !== 'boolean') problems.push('config.retry_failed must be true or false');
  if (sendRecord !== undefined && typeof sendRecord !== 'boolean') problems.push('config.send_record must be true or false');
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && (concurrency as number) >= 1 && (concurrency as number) <= MAX_CONCURRENCY)) {
    problems.push(`config.concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`);
  }
  const extra = Object.keys(rest);
  if (extra.length > 0) problems.push(`config.resume takes its tasks and shard from the record; remove ${extra.map((key) => `config.${key}`).join(', ')}`);
  if (problems.length > 0 || purpleUrl === undefined) return { kind: 'invalid', problems };
  return {
    kind: 'resume',
    resume: {
      purpleUrl,
      recordId: resume as string,
      retryFailed: retryFailed === true,
      sendRecord: sendRecord === true,
      ...(concurrency === undefined ? {} : { concurrency: concurrency as number }),
    },
  };
}
