import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { SandboxError } from '../sandbox-error';

// The helper: for each folder read from stdin, a line with its entries and their bytes (awk's sum of find's
// lines: type, links, inode, size), then a line with find's exit code and its complaints (newlines as
// tabs). Bytes as the engine's SizeRw counts a layer: every entry but folders, a file of several links
// once. Its own forks cost a small shell little; the green agent's own (a fork of a large process, on its
// event loop) are what it saves. It ends at EOF.
const SUM = '{ n++ } $1 != "d" && $4 > 0 && ($2 == 1 || !seen[$3]++) { s += $4 } END { printf "%.0f %.0f\\n", n, s }';
const HELPER = [
  'exec 3>&1',
  'while IFS= read -r dir; do',
  `  out=$( { find "$dir" -xdev -printf '%y %n %i %s\\n' 2>&4 | awk '${SUM}' >&3; echo "=\${PIPESTATUS[0]}"; } 4>&1 )`,
  "  msg=${out%=*}; msg=${msg//$'\\n'/$'\\t'}",
  '  printf \'%s %s\\n\' "${out##*=}" "${msg:0:2048}"',
  'done',
].join('\n');

/** A helper unused this long ends: between runs the agent holds no process and no pipe for it. */
const IDLE_MS = 5000;
// find's complaint of an entry that went between its listing and its look: the task deletes as it writes.
const VANISHED = /No such file or directory/;

/** A folder's entries (each one inode) and their bytes, as the engine's SizeRw counts a layer's. */
interface FolderUse {
  files: number;
  bytes: number;
}

interface Pending {
  folder: string;
  resolve: (use: FolderUse) => void;
  reject: (error: Error) => void;
}

/** One helper and the counts it owes, in the order asked; what it prints is read into the first one. */
interface Helper {
  child: ChildProcessByStdio<Writable, Readable, null>;
  queue: Pending[];
  /** What is read of the line under way, and the counts' line before the status line. */
  line: string;
  counts: string | undefined;
}

/**
 * Counts the entries of folders from this host, as `countFolder` does (`find -xdev`, entries that vanish
 * mid-walk forgiven, what runs in the task cannot make it lie), and their bytes, as the engine's SizeRw
 * does, through one long-lived helper shell for all the tasks of a process instead of a child per look: a
 * fork of a large Node process costs its event loop tens of milliseconds, and 128 tasks' watchdogs look
 * every 2 s. Counts are served one after another, and none asks the engine anything.
 */
export class FolderCounter {
  private helper: Helper | undefined;
  private idle: NodeJS.Timeout | undefined;

  /** The helper's pid while it runs (for tests and diagnostics). */
  get pid(): number | undefined {
    return this.helper?.child.pid;
  }

  count(folder: string): Promise<FolderUse> {
    if (folder.includes('\n'))
      return Promise.reject(new SandboxError('FOLDER_COUNT_FAILED', `cannot count ${JSON.stringify(folder)}: its name holds a newline`));
    clearTimeout(this.idle);
    const helper = this.running();
    return new Promise((resolve, reject) => {
      helper.queue.push({ folder, resolve, reject });
      helper.child.stdin.write(`${folder}\n`);
    });
  }

  /** Ends the helper once it has answered what it was asked; it takes no more. */
  close(): void {
    clearTimeout(this.idle);
    this.helper?.child.stdin.end();
    this.helper = undefined;
  }

  private running(): Helper {
    if (this.helper) return this.helper;
    const child = spawn('bash', ['-c', HELPER], { stdio: ['pipe', 'pipe', 'ignore'] });
    const helper: Helper = { child, queue: [], line: '', counts: undefined };
    this.helper = helper;
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => this.read(helper, chunk));
    child.stdin.on('error', () => undefined); // The helper's end is reported by 'close' below.
    child.on('error', (error) => this.fail(helper, `the folder counter could not run bash: ${error.message}`));
    child.on('close', (code) => this.fail(helper, `the folder counter ended (exit ${code}) before answering`));
    return helper;
  }

  private read(helper: Helper, chunk: string): void {
    const lines = (helper.line + chunk).split('\n');
    helper.line = lines.pop() ?? '';
    for (const line of lines) {
      if (helper.counts === undefined) helper.counts = line;
      else this.answer(helper, helper.counts, line);
    }
  }

  private answer(helper: Helper, counts: string, status: string): void {
    helper.counts = undefined;
    const [files, bytes] = counts.split(' ').map(Number);
    const [code, ...rest] = status.split(' ');
    const pending = helper.queue.shift();
    if (helper.queue.length === 0 && helper === this.helper) this.idleSoon();
    if (!pending) return;
    const complaints = rest
      .join(' ')
      .split('\t')
      .filter((line) => line !== '');
    // Only vanished entries are forgiven: a folder it could not read would undercount.
    if (code === '0' || (files > 0 && complaints.every((line) => VANISHED.test(line)))) return pending.resolve({ files, bytes });
    pending.reject(new SandboxError('FOLDER_COUNT_FAILED', `find ${pending.folder} failed (exit ${code}): ${complaints[0] ?? 'no reason given'}`));
  }

  private idleSoon(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
  }

  private fail(helper: Helper, reason: string): void {
    if (this.helper === helper) this.helper = undefined;
    for (const pending of helper.queue.splice(0)) pending.reject(new SandboxError('FOLDER_COUNT_FAILED', `cannot count ${pending.folder}: ${reason}`));
  }
}
