import { spawn } from 'node:child_process';

/** What a folder holds: its entries (each one inode), and its disk in bytes when asked for. */
interface FolderCount {
  files: number;
  bytes?: number;
}

// find's complaint of an entry that went between its listing and its look: the task deletes as it writes.
const VANISHED = /No such file or directory/;

/**
 * Counts what `folder` holds, from this host, with `find -xdev` in a child process: the walk is off the
 * event loop, and what runs in the task cannot make it lie (a folder it closes to the host fails the count
 * instead). With `bytes`, each entry's allocated disk is summed too (one stat each: about 4 times slower).
 * 100k entries take about 50 ms, 230 ms with bytes.
 */
export function countFolder(folder: string, options: { bytes?: boolean } = {}): Promise<FolderCount> {
  const format = options.bytes ? '%k\\n' : '.';
  return new Promise((resolve, reject) => {
    const child = spawn('find', [folder, '-xdev', '-printf', format], { stdio: ['ignore', 'pipe', 'pipe'] });
    let files = 0;
    let kib = 0;
    let partial = '';
    let complaint = '';
    child.stdout.setEncoding('latin1');
    child.stdout.on('data', (chunk: string) => {
      if (!options.bytes) {
        files += chunk.length;
        return;
      }
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      files += lines.length;
      for (const line of lines) kib += Number(line);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (complaint.length < 4096) complaint += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = complaint.split('\n').filter((line) => line !== '');
      // Only vanished entries are forgiven: a folder it could not read would undercount.
      if (code === 0 || (files > 0 && lines.every((line) => VANISHED.test(line)))) {
        resolve(options.bytes ? { files, bytes: kib * 1024 } : { files });
      } else {
        reject(new Error(`find ${folder} failed (exit ${code}): ${lines[0] ?? 'no reason given'}`));
      }
    });
  });
}

/** `1,000,123`: a count as people read it, whatever the host's locale. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}
