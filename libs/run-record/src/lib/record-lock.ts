// One session writes a record at a time: its first run or a resume holds a lock file in the record's folder,
// taken atomically (linked into place whole), so that two green processes sharing the folder never both run its
// missing tasks. A lock whose owner is gone is stale and taken over.
import { randomBytes } from 'node:crypto';
import { link, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import type { ProcessTable } from '@arvo-rca/common';
import { RecordError } from './record-error';
import { RecordLayout } from './record-layout';

/** Which session holds a record. */
type RecordLockKind = 'run' | 'resume';

/** Who takes locks: this process's host (a key for its process table) and that table. */
interface LockOwner {
  /** The host as the sandbox's owner ids name it (ownerHost): hostname, boot and pid namespace. */
  host: string;
  processes: ProcessTable;
}

interface LockFile {
  host: string;
  pid: number;
  /** The owner's start, epoch seconds: a later process reusing the pid does not pass for it. */
  started: number | null;
  since: string;
  kind: RecordLockKind;
  nonce: string;
}

// The holder touches its lock this often; another host's lock untouched for STALE_AFTER_MS is an owner gone
// (its pids cannot be looked up from here).
const HEARTBEAT_MS = 20_000;
const STALE_AFTER_MS = 120_000;
const TAKE_ATTEMPTS = 4;

/** A record's lock, held by this process until released. */
export class RecordLock {
  private released = false;
  private readonly heartbeat: NodeJS.Timeout;

  private constructor(
    readonly path: string,
    private readonly nonce: string,
  ) {
    this.heartbeat = setInterval(() => void this.touch(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /**
   * Takes the lock of the record in `folder`; a RecordError (RECORD_BUSY) naming the session that holds it
   * when one does. A lock left by a process that is gone (a dead pid on this host, or a lock of another host
   * left untouched) is taken over.
   */
  static async take(folder: string, kind: RecordLockKind, owner: LockOwner, now = new Date()): Promise<RecordLock> {
    const path = new RecordLayout(folder).lockFile;
    const self = owner.processes.self();
    const content: LockFile = {
      host: owner.host,
      pid: self.pid,
      started: self.started ?? null,
      since: now.toISOString(),
      kind,
      nonce: randomBytes(8).toString('hex'),
    };
    for (let attempt = 0; attempt < TAKE_ATTEMPTS; attempt++) {
      if (await create(path, content)) return new RecordLock(path, content.nonce);
      const held = await readHeld(path);
      if (held === undefined) continue; // Released meanwhile.
      if (!(await isStale(path, held.lock, owner))) throw busy(folder, held.lock);
      await takeOver(path, held.raw);
    }
    throw new RecordError('RECORD_BUSY', `record ${folder} is being taken by other assessments at this moment; send the resume again`);
  }

  /** Gives the lock up; once only, and never another holder's (one that took it over as stale). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    const held = await readHeld(this.path);
    if (held?.lock?.nonce === this.nonce) await unlink(this.path).catch(() => undefined);
  }

  private async touch(): Promise<void> {
    const now = new Date();
    if (!this.released) await utimes(this.path, now, now).catch(() => undefined);
  }
}

/**
 * Creates the lock file, whole: it is written aside and linked into place, so no reader ever sees it half
 * written (link refuses to replace one that is there). False when one is there.
 */
async function create(path: string, content: LockFile): Promise<boolean> {
  const written = `${path}.new-${content.nonce}`;
  await writeFile(written, `${JSON.stringify(content)}\n`, { flag: 'wx' });
  try {
    await link(written, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(written).catch(() => undefined);
  }
}

/** The lock as written (raw), and read (undefined while it is being written, or when it is no lock); undefined when there is none. */
async function readHeld(path: string): Promise<{ raw: string; lock: LockFile | undefined } | undefined> {
  const raw = await readFile(path, 'utf8').catch(() => undefined);
  if (raw === undefined) return undefined;
  try {
    const lock = JSON.parse(raw) as LockFile;
    return { raw, lock: typeof lock.pid === 'number' && typeof lock.host === 'string' ? lock : undefined };
  } catch {
    return { raw, lock: undefined };
  }
}

async function isStale(path: string, lock: LockFile | undefined, owner: LockOwner): Promise<boolean> {
  if (lock?.host === owner.host) return !owner.processes.isRunningSince(lock.pid, lock.started ?? undefined);
  // Another host's lock, or one half written: its age alone tells.
  const touched = await stat(path).then(
    (info) => info.mtimeMs,
    () => Date.now(),
  );
  return Date.now() - touched > STALE_AFTER_MS;
}

/**
 * Moves the stale lock aside and removes it, if it is still the one judged stale; one that another process
 * took over meanwhile goes back (link refuses to replace a lock made since).
 */
async function takeOver(path: string, judged: string): Promise<void> {
  const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
  const moved = await rename(path, aside).then(
    () => true,
    () => false,
  );
  if (!moved) return;
  const raw = await readFile(aside, 'utf8').catch(() => undefined);
  if (raw !== judged) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
}

function busy(folder: string, lock: LockFile | undefined): RecordError {
  const doing = lock?.kind === 'run' ? 'written by its first run' : 'resumed by another assessment';
  const since = lock ? ` (started ${lock.since})` : '';
  return new RecordError('RECORD_BUSY', `record ${folder} is being ${doing}${since}; send the resume again when it has finished`);
}
