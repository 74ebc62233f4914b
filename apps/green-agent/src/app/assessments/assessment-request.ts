import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { IsArray, ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsOptional, Max, Min, validateSync, type ValidationError } from 'class-validator';
import { isRecord, type TaskRef } from '@arvo-rca/common';
import type { Shard } from '@arvo-rca/results';
import { TaskAssetsError } from '../task-assets';
import { SOLVER_PROTOCOLS, type SolverProtocol } from '../tasks';
import { CONFIG_KEYS, readConfig, type ConfigReading } from './assessment-config';
import { readParticipants } from './assessment-participants';

export const MAX_CONCURRENCY = 32;

// Messages say what is wrong; the path of the key (top level or nested) goes in front of them. The
// validator stops at a key's first problem, checking the decorators from the bottom up.
class TaskConfig {
  @ArrayNotEmpty({ message: 'must name at least one task' })
  @IsArray({ message: 'must be a list of task ids' })
  task_ids: unknown[];

  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_tasks?: number;

  /** The leaderboard CI's cap, written flat beside the shard keys: like num_tasks, it cuts the whole list before it is split. */
  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_instances?: number;

  @IsOptional()
  @Max(MAX_CONCURRENCY, { message: `must be at most ${MAX_CONCURRENCY}` })
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  concurrency?: number;

  @IsOptional()
  @Min(0, { message: 'must not be negative' })
  @IsInt({ message: 'must be a whole number' })
  shard_index?: number;

  @IsOptional()
  @Min(1, { message: 'must be at least 1' })
  @IsInt({ message: 'must be a whole number' })
  num_shards?: number;

  @IsOptional()
  @IsIn(SOLVER_PROTOCOLS, { message: `must be one of ${SOLVER_PROTOCOLS.join(', ')}` })
  solver_protocol?: SolverProtocol;

  @IsOptional()
  @IsBoolean({ message: 'must be true or false' })
  send_record?: boolean;
}

/** What turns task id text into a task of a configured source (the green agent's TaskAssetsService); throws a TaskAssetsError. */
export interface TaskIdParser {
  parse(text: string): TaskRef;
}

/** A validated request: this shard's tasks, each of a configured source, in the list's order. */
export interface AssessmentRequest {
  purpleUrl: string;
  tasks: TaskRef[];
  concurrency: number;
  shard: Shard;
  /** Config keys the request holds that the assessment does not use (`foo`, `assessment_config.bar`). */
  ignoredConfigKeys: string[];
  /** The wire the solver is to be spoken to in, when the request names one; else its card's, else the default. */
  solverProtocol?: SolverProtocol;
  /** Send the run record's files as they are written (`config.send_record`), for a runner that keeps the record. */
  sendRecord: boolean;
}

/** A request to go on with a run record: the tasks come from the record, where they are parsed. */
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

export type AssessmentParse =
  { kind: 'request'; request: AssessmentRequest } | { kind: 'resume'; resume: ResumeRequest } | { kind: 'invalid'; problems: string[] } | { kind: 'none' };

const RECORD_ID = /^[0-9A-Za-z][0-9A-Za-z_-]{0,127}$/;

/** Whether a message is an assessment request (JSON with `participants` or `config`), and if so, is it valid; every problem is named. */
export function parseAssessmentRequest(text: string, data: unknown[], taskIds: TaskIdParser): AssessmentParse {
  const body = data.find(isRecord) ?? parseJsonObject(text);
  if (typeof body === 'string') return { kind: 'invalid', problems: [body] };
  if (!body || !('participants' in body || 'config' in body)) return { kind: 'none' };
  const { solverUrl, problems } = readParticipants(body['participants']);
  if (!isRecord(body['config'])) return { kind: 'invalid', problems: [...problems, 'config must be an object with task_ids'] };
  if ('resume' in body['config']) return parseResume(body['config'], solverUrl, problems);
  const reading = readConfig(body['config']);
  const config = plainToInstance(TaskConfig, reading.values);
  problems.push(
    ...validateSync(config, { stopAtFirstError: true }).flatMap((error) => messagesOf(error).map((message) => `${pathOf(error.property, reading)} ${message}`)),
  );
  problems.push(...shardProblems(config, reading));
  const listed = (Array.isArray(config.task_ids) ? config.task_ids : []).map((id, index) => parseTaskId(id, `${reading.path('task_ids')}[${index}]`, taskIds));
  problems.push(...listed.flatMap((task) => (typeof task === 'string' ? [task] : [])));
  if (problems.length > 0 || solverUrl === undefined) return { kind: 'invalid', problems };
  const shard: Shard = { index: config.shard_index ?? 0, count: config.num_shards ?? 1 };
  const cap = Math.min(config.num_tasks ?? listed.length, config.num_instances ?? listed.length);
  const tasks = listed.flatMap((task) => (typeof task === 'string' ? [] : [task])).slice(0, cap);
  return {
    kind: 'request',
    request: {
      purpleUrl: solverUrl,
      // Round-robin, as the reference green agent splits its list (`task_names[shard_index::num_shards]`).
      tasks: tasks.filter((_, position) => position % shard.count === shard.index),
      concurrency: config.concurrency ?? 1,
      shard,
      ignoredConfigKeys: reading.ignored,
      sendRecord: config.send_record ?? false,
      ...(config.solver_protocol === undefined ? {} : { solverProtocol: config.solver_protocol }),
    },
  };
}

/** `config.resume` (a record id), `config.retry_failed`, `config.concurrency` and `config.send_record`; nothing else goes with them. */
function parseResume(config: Record<string, unknown>, purpleUrl: string | undefined, problems: string[]): AssessmentParse {
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

/** The index must be below the count (the default count is 1); each value's own problems are named by the validator. */
function shardProblems(config: TaskConfig, reading: ConfigReading): string[] {
  const { shard_index: index, num_shards: count } = config;
  const valid = (value: number | undefined, min: number): boolean => value === undefined || (Number.isInteger(value) && value >= min);
  if (index === undefined || !valid(index, 0) || !valid(count, 1) || index < (count ?? 1)) return [];
  const countText = count === undefined ? '1, as it is not given' : String(count);
  return [`${reading.path('shard_index')} (${index}) must be below ${reading.path('num_shards')} (${countText})`];
}

function pathOf(property: string, reading: ConfigReading): string {
  const key = CONFIG_KEYS.find((known) => known === property);
  return key ? reading.path(key) : `config.${property}`;
}

/** The task an entry of task_ids names, or the problem with it. */
function parseTaskId(id: unknown, path: string, taskIds: TaskIdParser): TaskRef | string {
  if (typeof id !== 'string' && typeof id !== 'number') return `${path} (${JSON.stringify(id)}) is not a task id such as "arvo:14368" or 14368`;
  try {
    return taskIds.parse(String(id));
  } catch (error) {
    if (error instanceof TaskAssetsError) return `${path}: ${error.message}`;
    throw error;
  }
}

function messagesOf(error: ValidationError): string[] {
  return [...Object.values(error.constraints ?? {}), ...(error.children ?? []).flatMap(messagesOf)];
}

/** The JSON object a text holds; a string saying why when it looks like JSON but is not. */
function parseJsonObject(text: string): Record<string, unknown> | string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isRecord(value) ? value : undefined;
  } catch (error) {
    return `the request is not valid JSON: ${(error as Error).message}`;
  }
}
