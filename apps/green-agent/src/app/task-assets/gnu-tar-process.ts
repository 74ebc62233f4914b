import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { TaskAssetsError } from './task-assets.errors';
import type { TreeCopy } from './tree-copy';

const STDERR_KEPT_BYTES = 4096;
const END_OF_ARCHIVE = Buffer.alloc(1024);
const BATCH_BYTES = 256 * 1024;

/**
 * GNU tar unpacking a tar stream written to its stdin into a folder. Owners are never restored and modes
 * pass through the umask; what it is fed decides the rest (see ArchiveWriter).
 */
export class GnuTarProcess {
  private stderr = '';
  private spawnError: Error | undefined;
  private draining: Promise<void> | undefined;
  private pending: Buffer[] = [];
  private copyPending: Buffer[] = [];
  private pendingBytes = 0;
  /** Its input is complete; it may exit now. */
  private ended = false;
  private killed = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcessByStdio<Writable, null, Readable>,
    private readonly copy: TreeCopy | undefined,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('error', (error) => {
        this.spawnError = error;
        resolve();
      });
      child.once('close', () => resolve());
    });
    // A tar that died early makes writes fail with EPIPE; its exit status says why.
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT_BYTES);
    });
  }

  /** `copy` gets the bytes tar is fed, as it is fed them, and those written for the copy alone. */
  static extractInto(dir: string, copy?: TreeCopy): GnuTarProcess {
    const args = [
      '-x',
      '-f',
      '-',
      '-C',
      dir,
      '--no-same-owner',
      '--no-same-permissions',
      '--no-overwrite-dir',
      '--delay-directory-restore',
      '--warning=no-timestamp',
    ];
    return new GnuTarProcess(spawn('tar', args, { stdio: ['pipe', 'ignore', 'pipe'], env: { PATH: process.env['PATH'] ?? '', LC_ALL: 'C' } }), copy);
  }

  /** Queues bytes for tar (or, `toHost` false, for the copy alone): a pipe write per header would cost more than all the rest. */
  write(chunk: Buffer, toHost = true): void {
    if (toHost) this.pending.push(chunk);
    if (this.copy) this.copyPending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes >= BATCH_BYTES) this.flush();
  }

  /** Hands tar (and the copy) what is queued; settles once they have taken it, and rejects once tar has failed. */
  async drained(): Promise<void> {
    this.flush();
    await Promise.all([this.stdinDrained(), this.copy?.drained()]);
  }

  private stdinDrained(): Promise<void> {
    const failure = this.failure();
    if (failure) return Promise.reject(failure);
    const stdin = this.child.stdin;
    if (!stdin.writableNeedDrain || stdin.destroyed) return Promise.resolve();
    this.draining ??= new Promise<void>((resolve) => {
      const done = (): void => {
        stdin.off('drain', done);
        stdin.off('close', done);
        this.draining = undefined;
        resolve();
      };
      stdin.on('drain', done);
      stdin.on('close', done);
    });
    return this.draining;
  }

  /** Ends the archive and waits for tar; EXTRACTION_FAILED when it could not write the tree. */
  async finish(): Promise<void> {
    this.write(END_OF_ARCHIVE);
    this.flush();
    this.ended = true;
    this.child.stdin.end();
    await this.exited;
    const failure = this.failure();
    if (failure) {
      this.copy?.abandon();
      throw failure;
    }
    this.copy?.end();
  }

  /** Stops tar at once and waits until it is gone, so that nothing writes into the folder afterwards. */
  async kill(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null && !this.spawnError) {
      this.killed = true;
      this.child.kill('SIGKILL');
    }
    this.child.stdin.destroy();
    this.copy?.abandon();
    await this.exited;
  }

  /** Why tar stopped on its own, once it has (a full disk, no tar at all ...); undefined while it runs or after a clean end. */
  failure(): TaskAssetsError | undefined {
    if (this.spawnError) {
      return new TaskAssetsError('EXTRACTION_FAILED', `GNU tar is needed to extract task archives: ${this.spawnError.message}`, { cause: this.spawnError });
    }
    const { exitCode, signalCode } = this.child;
    if (this.killed || (exitCode === null && signalCode === null) || (exitCode === 0 && this.ended)) return undefined;
    const said = this.stderr.trim().split('\n').slice(-3).join('; ');
    return new TaskAssetsError(
      'EXTRACTION_FAILED',
      `tar exited with ${exitCode ?? signalCode}${this.ended ? '' : ' before the end of the archive'}: ${said || 'no message'}`,
    );
  }

  private flush(): void {
    if (this.pending.length > 0 && !this.child.stdin.destroyed) this.child.stdin.write(joined(this.pending));
    if (this.copyPending.length > 0) this.copy?.write(joined(this.copyPending));
    this.pending = [];
    this.copyPending = [];
    this.pendingBytes = 0;
  }
}

function joined(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
