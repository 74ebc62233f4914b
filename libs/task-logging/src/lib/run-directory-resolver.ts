import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync, statSync } from 'node:fs';
import { access, mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ProcessTable } from '@arvo-rca/common';
import { isFresh, parseRecord, serializeRecord, type CurrentRunRecord } from './current-run-record';
import { runDirectoryName } from './run-directory';
import { systemReason, TaskLoggingError } from './task-logging-error';

export const CURRENT_RUN_FILE = '.current_run';
/** Default of the freshness rule: a run recorded less than this ago is adopted even if its creator is gone. */
const RECENT_RUN_MS = 120_000;
// A creator writes its record right after creating the file; an empty record older than this was abandoned.
const INCOMPLETE_RECORD_GRACE_MS = 2_000;
// A claim on a stale record is held for a few file operations; one older than this was abandoned.
const CLAIM_GRACE_MS = 5_000;
const RECORD_POLL_MS = 20;
const MAX_ATTEMPTS = 20;

export interface RunDirectoryRequest {
  /** LOG_DIR: the root under which runs get their `log_<time>` directory. */
  logDir: string;
  /** LOG_RUN_DIR: the launcher's choice, used as it is. */
  runDir?: string;
  recentMs?: number;
}

interface RecordOnDisk {
  text: string;
  inode: number;
  record: CurrentRunRecord | undefined;
}

/**
 * Finds the one run directory both agents write into. The launcher's LOG_RUN_DIR wins. Otherwise the
 * first process creates `LOG_DIR/.current_run` with an exclusive create and records its new directory
 * there; any other process adopts the recorded directory while it is fresh (see `isFresh`). A stale
 * record is replaced by exactly one process: the one whose exclusive create of a claim named after that
 * record succeeds; it swaps the new record in with a rename (so `.current_run` never goes missing) and
 * removes its claim. Only the record and run directories stay in LOG_DIR.
 */
export class RunDirectoryResolver {
  constructor(
    private readonly processes: ProcessTable = new ProcessTable(),
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async resolve(request: RunDirectoryRequest): Promise<string> {
    if (request.runDir) return this.ensureWritable(resolve(request.runDir), 'LOG_RUN_DIR');
    const logDir = await this.ensureWritable(resolve(request.logDir), 'LOG_DIR');
    const recordPath = join(logDir, CURRENT_RUN_FILE);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const created = await this.tryCreate(logDir, recordPath);
      if (created) return created;
      const existing = await this.readRecord(recordPath);
      if (!existing) continue;
      if (existing.record && this.fresh(logDir, existing.record, request.recentMs ?? RECENT_RUN_MS)) return join(logDir, existing.record.run);
      const replaced = await this.tryReplace(logDir, recordPath, existing);
      if (replaced) return replaced;
    }
    throw new TaskLoggingError('RUN_DIRECTORY_CONTENDED', `could not settle on a run directory through ${recordPath} after ${MAX_ATTEMPTS} attempts`);
  }

  private fresh(logDir: string, record: CurrentRunRecord, recentMs: number): boolean {
    return isFresh(record, {
      now: this.clock(),
      recentMs,
      creatorRunning: (creator) => this.processes.isRunning(creator),
      runDirectoryExists: (run) => statSync(join(logDir, run), { throwIfNoEntry: false })?.isDirectory() === true,
    });
  }

  private async ensureWritable(dir: string, variable: string): Promise<string> {
    try {
      await mkdir(dir, { recursive: true });
      await access(dir, constants.W_OK);
      return dir;
    } catch (error) {
      throw unwritable(dir, variable, error);
    }
  }

  /** The new run directory when no record exists yet, undefined when one does. */
  private async tryCreate(logDir: string, recordPath: string): Promise<string | undefined> {
    const handle = await open(recordPath, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw unwritable(logDir, 'LOG_DIR', error);
    });
    if (!handle) return undefined;
    try {
      // The directory exists before the record is complete: whoever reads the record finds it.
      const { dir, text } = await this.newRun(logDir);
      await handle.write(text);
      return dir;
    } catch (error) {
      await unlink(recordPath).catch(() => undefined);
      throw unwritable(logDir, 'LOG_DIR', error);
    } finally {
      await handle.close();
    }
  }

  /**
   * Replaces a stale record when this process wins the claim on it; undefined when another process
   * holds the claim (then this one waits for the new record and reads it on the next round).
   */
  private async tryReplace(logDir: string, recordPath: string, stale: RecordOnDisk): Promise<string | undefined> {
    const claim = `${recordPath}.replacing-${stale.inode}-${createHash('sha256').update(stale.text).digest('hex').slice(0, 12)}`;
    const handle = await open(claim, 'wx').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EEXIST') return undefined;
      throw unwritable(logDir, 'LOG_DIR', error);
    });
    if (!handle) {
      await this.waitForReplacement(recordPath, stale, claim);
      return undefined;
    }
    await handle.close();
    const staging = `${recordPath}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      // A late process may claim a record that was replaced already: only the stale one itself is replaced.
      if (!sameRecord(await readWithInode(recordPath), stale)) return undefined;
      const { dir, text } = await this.newRun(logDir);
      await writeFile(staging, text);
      await rename(staging, recordPath);
      return dir;
    } catch (error) {
      throw unwritable(logDir, 'LOG_DIR', error);
    } finally {
      await unlink(staging).catch(() => undefined);
      await unlink(claim).catch(() => undefined);
    }
  }

  /** Until the stale record is gone or replaced; a claim whose holder vanished is removed after a grace time. */
  private async waitForReplacement(recordPath: string, stale: RecordOnDisk, claim: string): Promise<void> {
    const deadline = Date.now() + CLAIM_GRACE_MS;
    while (sameRecord(await readWithInode(recordPath), stale)) {
      if (!existsSync(claim)) return;
      if (Date.now() > deadline) {
        await unlink(claim).catch(() => undefined);
        return;
      }
      await sleep(RECORD_POLL_MS);
    }
  }

  private async newRun(logDir: string): Promise<{ dir: string; text: string }> {
    const now = this.clock();
    const run = runDirectoryName(now);
    await mkdir(join(logDir, run), { recursive: true });
    return { dir: join(logDir, run), text: serializeRecord({ run, createdAt: now.toISOString(), creator: this.processes.self() }) };
  }

  /** The record as it is on disk, waiting briefly while its creator is still writing it; undefined once gone. */
  private async readRecord(recordPath: string): Promise<RecordOnDisk | undefined> {
    for (;;) {
      const onDisk = await readWithInode(recordPath);
      if (!onDisk) return undefined;
      const record = parseRecord(onDisk.text);
      if (record || Date.now() - onDisk.modified > INCOMPLETE_RECORD_GRACE_MS) return { ...onDisk, record };
      await sleep(RECORD_POLL_MS);
    }
  }
}

function sameRecord(current: Omit<RecordOnDisk, 'record'> | undefined, stale: RecordOnDisk): boolean {
  return current !== undefined && current.inode === stale.inode && current.text === stale.text;
}

// Content and inode from one open file, so that both describe the same record.
async function readWithInode(path: string): Promise<(Omit<RecordOnDisk, 'record'> & { modified: number }) | undefined> {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    return { text: await handle.readFile('utf8'), inode: info.ino, modified: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

function unwritable(dir: string, variable: string, error: unknown): TaskLoggingError {
  return new TaskLoggingError('LOG_DIR_UNWRITABLE', `cannot write logs in ${dir} (${variable}): ${systemReason(error)}`, { cause: error });
}
