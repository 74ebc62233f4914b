import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';
import { DEFAULT_MAX_BODY_BYTES } from '@arvo-rca/a2a-protocol';
import { DEFAULT_LOG_BOUNDS } from '@arvo-rca/task-logging';

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

/** The variables every agent reads; each app's configuration class extends this one. */
export class AppConfig {
  @IsString()
  HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 0;

  @IsOptional()
  @IsUrl({ require_tld: false, require_protocol: true })
  CARD_URL?: string;

  @IsString()
  LOG_DIR: string = './logs';

  @IsOptional()
  @IsString()
  LOG_RUN_DIR?: string;

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: LogLevel = 'info';

  // Below 1 KiB a line could not say what it is about.
  @IsInt()
  @Min(1024)
  LOG_LINE_MAX_BYTES: number = DEFAULT_LOG_BOUNDS.lineBytes;

  // 0: no bound.
  @IsInt()
  @Min(0)
  LOG_TASK_MAX_BYTES: number = DEFAULT_LOG_BOUNDS.taskBytes;

  @IsOptional()
  @IsString()
  A2A_TOKEN?: string;

  // Below 64 KiB a task description with its crash report may no longer fit.
  @IsInt()
  @Min(64 * 1024)
  A2A_MAX_BODY_BYTES: number = DEFAULT_MAX_BODY_BYTES;
}

/** The URL peers use: the card URL when given, else this agent's own address. */
export function publicUrl(env: Pick<AppConfig, 'HOST' | 'PORT' | 'CARD_URL'>): string {
  if (env.CARD_URL) return env.CARD_URL;
  const host = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return `http://${host}:${env.PORT}/`;
}
