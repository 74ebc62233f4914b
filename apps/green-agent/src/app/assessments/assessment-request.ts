import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsUrl,
  Max,
  Min,
  ValidateNested,
  validateSync,
  type ValidationError,
} from 'class-validator';
import { formatTaskKey, parseTaskKey } from '@arvo-rca/a2a-protocol';

export const MAX_CONCURRENCY = 32;

class Participants {
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'participants.purple_agent must be the URL of the purple agent' })
  purple_agent: string;
}

class AssessmentConfig {
  @IsArray({ message: 'config.task_ids must be a list of task ids' })
  @ArrayNotEmpty({ message: 'config.task_ids must name at least one task' })
  task_ids: (string | number)[];

  @IsOptional()
  @IsInt({ message: 'config.num_tasks must be a whole number' })
  @Min(1, { message: 'config.num_tasks must be at least 1' })
  num_tasks?: number;

  @IsOptional()
  @IsInt({ message: 'config.concurrency must be a whole number' })
  @Min(1, { message: 'config.concurrency must be at least 1' })
  @Max(MAX_CONCURRENCY, { message: `config.concurrency must be at most ${MAX_CONCURRENCY}` })
  concurrency?: number;
}

/** The AgentBeats assessment request: who to assess, on which tasks, how many at once. */
export class AssessmentRequestBody {
  @IsObject({ message: 'participants must be an object naming purple_agent' })
  @ValidateNested()
  @Type(() => Participants)
  participants: Participants;

  @IsObject({ message: 'config must be an object with task_ids' })
  @ValidateNested()
  @Type(() => AssessmentConfig)
  config: AssessmentConfig;
}

/** A validated request: task keys normalised (`14368` → `arvo:14368`) and cut to num_tasks. */
export interface AssessmentRequest {
  purpleUrl: string;
  taskKeys: string[];
  concurrency: number;
}

export type AssessmentParse = { kind: 'request'; request: AssessmentRequest } | { kind: 'invalid'; problems: string[] } | { kind: 'none' };

/** Whether a message is an assessment request (JSON with `participants` or `config`), and if so, is it valid. */
export function parseAssessmentRequest(text: string, data: unknown[]): AssessmentParse {
  const json = data.find(isObject) ?? parseJsonObject(text);
  if (typeof json === 'string') return { kind: 'invalid', problems: [json] };
  const body = json;
  if (!body || !('participants' in body || 'config' in body)) return { kind: 'none' };
  const request = plainToInstance(AssessmentRequestBody, body);
  const problems = validateSync(request).flatMap(messagesOf);
  const config = body['config'];
  const keys: unknown[] = isObject(config) && Array.isArray(config['task_ids']) ? config['task_ids'] : [];
  const taskKeys = keys.map((key) => (typeof key === 'string' || typeof key === 'number' ? parseTaskKey(key) : undefined));
  taskKeys.forEach((key, index) => {
    if (!key) problems.push(`config.task_ids[${index}] (${JSON.stringify(keys[index])}) is not a task id such as "arvo:14368" or 14368`);
  });
  if (problems.length > 0) return { kind: 'invalid', problems };
  return {
    kind: 'request',
    request: {
      purpleUrl: request.participants.purple_agent,
      taskKeys: taskKeys.flatMap((key) => (key ? [formatTaskKey(key)] : [])).slice(0, request.config.num_tasks ?? keys.length),
      concurrency: request.config.concurrency ?? 1,
    },
  };
}

function messagesOf(error: ValidationError): string[] {
  return [...Object.values(error.constraints ?? {}), ...(error.children ?? []).flatMap(messagesOf)];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON object a text holds; a string saying why when it looks like JSON but is not. */
function parseJsonObject(text: string): Record<string, unknown> | string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : undefined;
  } catch (error) {
    return `the request is not valid JSON: ${(error as Error).message}`;
  }
}
