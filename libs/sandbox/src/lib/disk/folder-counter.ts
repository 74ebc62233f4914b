import { Worker } from 'node:worker_threads';
import { SandboxError } from '../sandbox-error';

/**
 * The walk, in a worker thread: for each folder asked, its entries (as `find -xdev` lists them: the folder,
 * and everything under it without crossing into another filesystem) and their bytes, as the engine's SizeRw
 * counts a layer: every entry but folders, a file of several links once. An entry that vanishes between its
 * listing and its look is passed over (the task deletes as it writes); any other failure fails the count.
 * Written in plain JavaScript: the worker runs it from this text, whatever bundles the agent.
 */
const WALK = `
const { parentPort } = require('node:worker_threads');
const { lstatSync, readdirSync } = require('node:fs');
const vanished = (error) => error && error.code === 'ENOENT';
function walk(root) {
  const top = lstatSync(root);
  const seen = new Set();
  let files = 1;
  let bytes = 0;
  const folders = top.isDirectory() ? [root] : [];
  while (folders.length > 0) {
    const folder = folders.pop();
    let names;
    try {
      names = readdirSync(folder);
    } catch (error) {
      if (vanished(error) && folder !== root) continue;
      throw error;
    }
    for (const name of names) {
      const path = folder + '/' + name;
      const entry = lstatSync(path, { throwIfNoEntry: false });
      if (entry === undefined) continue;
      files += 1;
      if (entry.isDirectory()) {
        if (entry.dev === top.dev) folders.push(path);
      } else if (entry.size > 0 && (entry.nlink === 1 || !seen.has(entry.ino))) {
        if (entry.nlink > 1) seen.add(entry.ino);
        bytes += entry.size;
      }
    }
  }
  return { files, bytes };
}
function answer({ id, folder }) {
  try {
    return { id, use: walk(folder) };
  } catch (error) {
    return { id, error: String(error && error.message ? error.message : error) };
  }
}
parentPort.on('message', (batch) => parentPort.postMessage(batch.map(answer)));
`;

/** A helper unused this long ends: between runs the agent holds no thread for it. */
const IDLE_MS = 5000;
/** How long a count waits for others to go to the thread with it, in one message each way. */
export const COUNT_BATCH_MS = 10;

/** A folder's entries (each one inode) and their bytes, as the engine's SizeRw counts a layer's. */
interface FolderUse {
  files: number;
  bytes: number;
}

interface Pending {
  folder: string;
  /** The thread asked. */
  worker: Worker;
  /** Whether the count has gone to the thread, or waits for others to go with it. */
  sent: boolean;
  resolve: (use: FolderUse) => void;
  reject: (error: Error) => void;
}

type Answer = { id: number; use: FolderUse; error?: undefined } | { id: number; use?: undefined; error: string };

/**
 * Counts the entries of folders from this host, as `countFolder` does (`find -xdev`, entries that vanish
 * mid-walk forgiven, what runs in the task cannot make it lie), and their bytes, as the engine's SizeRw
 * does, in one worker thread for all the tasks of a process: no process per look, and none per folder. A
 * helper shell that ran `find | awk` for each look forked three processes a look, and at 128 tasks (a look
 * every 2 s each) those forks took 30 core-seconds of a 2-core machine's run. Counts are served one after
 * another, off the event loop, and none asks the engine anything. Those asked within COUNT_BATCH_MS of
 * each other go to the thread, and come back, as one message: each message wakes the other thread, and
 * on a machine whose cores are all busy the wake-up cost the asking loop its core (at 128 tasks, a
 * message each way for each look was the largest single cost on the green agent's loop). The tasks'
 * watchdogs look on a shared beat (DiskWatchdog), so that their looks come together.
 */
export class FolderCounter {
  private worker: Worker | undefined;
  /** A closed thread that still owes answers: it ends once it has given them. */
  private closing: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idle: NodeJS.Timeout | undefined;
  private batch: NodeJS.Timeout | undefined;
  private messages = 0;

  /** The walking thread's id while it runs (for tests and diagnostics). */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  /** The messages it sent its threads (for tests and diagnostics): one for the counts asked together. */
  get messagesSent(): number {
    return this.messages;
  }

  count(folder: string): Promise<FolderUse> {
    clearTimeout(this.idle);
    const worker = this.running();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { folder, worker, sent: false, resolve, reject });
      // Unreferenced, as the thread is: a count keeps no process alive.
      this.batch ??= setTimeout(() => this.send(), COUNT_BATCH_MS).unref();
    });
  }

  // The counts waiting go, one message to each thread they were asked of.
  private send(): void {
    this.batch = undefined;
    const batches = new Map<Worker, { id: number; folder: string }[]>();
    for (const [id, pending] of this.pending) {
      if (pending.sent) continue;
      pending.sent = true;
      const batch = batches.get(pending.worker) ?? [];
      batch.push({ id, folder: pending.folder });
      batches.set(pending.worker, batch);
    }
    for (const [worker, batch] of batches) {
      this.messages += 1;
      worker.postMessage(batch);
    }
  }

  /** Ends the walking thread once it has answered what it was asked; it takes no more. */
  close(): void {
    clearTimeout(this.idle);
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return;
    if (!this.owes(worker)) void worker.terminate();
    else this.closing = worker;
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WALK, { eval: true });
    this.worker = worker;
    worker.unref();
    worker.on('message', (answers: Answer[]) => this.answer(worker, answers));
    worker.on('error', (error) => this.fail(worker, `the folder counter failed: ${error.message}`));
    worker.on('exit', (code) => this.fail(worker, `the folder counter ended (exit ${code}) before answering`));
    return worker;
  }

  private answer(worker: Worker, answers: Answer[]): void {
    const settled = answers.flatMap((answer) => {
      const pending = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      return pending ? [{ pending, answer }] : [];
    });
    if (!this.owes(worker)) this.settled(worker);
    for (const { pending, answer } of settled) {
      if (answer.use) pending.resolve(answer.use);
      else pending.reject(new SandboxError('FOLDER_COUNT_FAILED', `counting ${pending.folder} failed: ${answer.error}`));
    }
  }

  private owes(worker: Worker): boolean {
    for (const pending of this.pending.values()) if (pending.worker === worker) return true;
    return false;
  }

  // Nothing owed: a closed thread ends now, the running one after IDLE_MS unused.
  private settled(worker: Worker): void {
    if (worker === this.closing) {
      this.closing = undefined;
      void worker.terminate();
    } else if (worker === this.worker) {
      clearTimeout(this.idle);
      this.idle = setTimeout(() => this.close(), IDLE_MS);
      this.idle.unref();
    }
  }

  private fail(worker: Worker, reason: string): void {
    if (this.worker === worker) this.worker = undefined;
    if (this.closing === worker) this.closing = undefined;
    for (const [id, pending] of this.pending) {
      if (pending.worker !== worker) continue;
      this.pending.delete(id);
      pending.reject(new SandboxError('FOLDER_COUNT_FAILED', `cannot count ${pending.folder}: ${reason}`));
    }
  }
}
