import { retryWithBackoff, type RetryPolicy } from '@arvo-rca/common';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { DownloadProgress, type AssetLog } from './download-progress';
import { HttpFetcher, HttpIdleTimeoutError, HttpStatusError, type HttpBody } from './http-fetcher';
import { TaskAssetsError } from '../task-assets.errors';
import { TaskFileSystem } from '../task-file-system';

/** How downloads behave; every field has a production default and tests shrink the delays. */
export interface DownloadPolicy {
  attempts: number;
  firstRetryDelayMs: number;
  maxRetryDelayMs: number;
  /** Longest silence from the server (connect, headers, or between body chunks) before the attempt is abandoned. */
  idleTimeoutMs: number;
  /** Files at least this big (or of unknown size) get progress lines. */
  progressMinBytes: number;
}

export const DEFAULT_DOWNLOAD_POLICY: DownloadPolicy = {
  attempts: 5,
  firstRetryDelayMs: 1000,
  maxRetryDelayMs: 30_000,
  idleTimeoutMs: 60_000,
  progressMinBytes: 8 * 1024 * 1024,
};

/** The body ended before the advertised Content-Length. */
class TruncatedDownloadError extends Error {
  constructor(received: number, expected: number) {
    super(`body ended after ${received} of ${expected} bytes`);
  }
}

/**
 * Disk room for one download attempt, asked for once its size is known from the headers (undefined when
 * the server did not say), before a byte of its body is written.
 */
export type DownloadRoom = (bytes: number | undefined) => Promise<RoomReservation>;

export interface RoomReservation {
  /** The file is complete under its final name, `bytes` long. */
  done(bytes: number): Promise<void>;
  /** The attempt failed: its room is free again. */
  drop(): void;
}

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH']);

/** Streams one URL into a file: a temporary name then a rename, so a file under its final name is always complete. */
export class FileDownloader {
  constructor(
    private readonly http: HttpFetcher,
    private readonly files: TaskFileSystem,
    private readonly policy: DownloadPolicy,
  ) {}

  /**
   * Retries 5xx, resets and timeouts with exponential backoff; a 404 is TASK_NOT_FOUND at once. With `room`,
   * each attempt asks for its room before it writes.
   */
  async download(url: URL, destination: string, label: string, log: AssetLog, room?: DownloadRoom): Promise<void> {
    const { attempts } = this.policy;
    try {
      await retryWithBackoff(() => this.attempt(url, destination, label, log, room), this.retryPolicy(), {
        retryable: isTransient,
        onRetry: (error, retry) => log(`${label}: ${reason(error)}; retrying (attempt ${retry + 1} of ${attempts})`),
      });
    } catch (error) {
      throw asAssetsError(error, url, label, attempts);
    }
  }

  // `attempts` counts the first try too.
  private retryPolicy(): RetryPolicy {
    const { attempts, firstRetryDelayMs, maxRetryDelayMs } = this.policy;
    return { maxRetries: Math.max(0, attempts - 1), baseDelayMs: firstRetryDelayMs, maxDelayMs: maxRetryDelayMs, jitter: 'full' };
  }

  private async attempt(url: URL, destination: string, label: string, log: AssetLog, room?: DownloadRoom): Promise<void> {
    const temporary = `${destination}.${randomUUID()}.part`;
    let reservation: RoomReservation | undefined;
    try {
      const body = await this.http.get(url, { idleTimeoutMs: this.policy.idleTimeoutMs });
      reservation = await roomFor(body, room);
      const progress = new DownloadProgress(label, body.length, log, this.policy.progressMinBytes);
      await pipeline(body.stream, progress.meter(), this.files.openForWrite(temporary));
      if (body.length !== undefined && progress.bytes !== body.length) {
        throw new TruncatedDownloadError(progress.bytes, body.length);
      }
      await this.files.rename(temporary, destination);
      await reservation?.done(progress.bytes);
      progress.finish();
    } catch (error) {
      reservation?.drop();
      await this.files.remove(temporary);
      throw error;
    }
  }
}

// The body waits while room is made: what happens to it meanwhile (a reset, silence) reaches the pipeline after, not the process.
async function roomFor(body: HttpBody, room: DownloadRoom | undefined): Promise<RoomReservation | undefined> {
  if (!room) return undefined;
  const meanwhile = (): void => undefined;
  body.stream.on('error', meanwhile);
  try {
    return await room(body.length);
  } catch (error) {
    body.stream.destroy();
    throw error;
  } finally {
    body.stream.off('error', meanwhile);
  }
}

function isTransient(error: unknown): boolean {
  if (error instanceof HttpStatusError) return error.status >= 500 || error.status === 408 || error.status === 429;
  if (error instanceof HttpIdleTimeoutError || error instanceof TruncatedDownloadError) return true;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && TRANSIENT_CODES.has(code);
}

function asAssetsError(error: unknown, url: URL, label: string, attempts: number): TaskAssetsError {
  if (error instanceof HttpStatusError && (error.status === 404 || error.status === 410)) {
    return new TaskAssetsError('TASK_NOT_FOUND', `task not found: no ${label} at ${url.href} (HTTP ${error.status})`, { cause: error });
  }
  const tries = isTransient(error) ? ` after ${attempts} attempts` : '';
  return new TaskAssetsError('DOWNLOAD_FAILED', `could not download ${label} from ${url.href}${tries}: ${reason(error)}`, { cause: error });
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as NodeJS.ErrnoException).code;
  return code && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
}
