import { ChildSpawner, type SpawnedChild } from '@arvo-rca/sandbox';
import { TaskAssetsError } from '../task-assets.errors';
import type { TreeCopy } from './tree-copy';

const END_OF_ARCHIVE = Buffer.alloc(1024);
const BATCH_BYTES = 256 * 1024;

/**
 * GNU tar unpacking a tar stream written to its stdin into a folder. Owners are never restored and modes
 * pass through the umask; what it is fed decides the rest (see ArchiveWriter). It is started by the
 * spawner process (ChildSpawner), so that its start does not stop the green agent's event loop.
 */
export class GnuTarProcess {
  private draining: Promise<void> | undefined;
  private pending: Buffer[] = [];
  private copyPending: Buffer[] = [];
  private pendingBytes = 0;
  /** Its input is complete; it may exit now. */
  private ended = false;
  private killed = false;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: SpawnedChild,
    private readonly copy: TreeCopy | undefined,
  ) {
    this.exited = child.ended.then(() => undefined);
    // A tar that died early makes writes fail with EPIPE; its exit status says why.
    child.stdin?.on('error', () => undefined);
  }

  /** `copy` gets the bytes tar is fed, as it is fed them, and those written for the copy alone. */
  static async extractInto(dir: string, copy?: TreeCopy): Promise<GnuTarProcess> {
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
    return new GnuTarProcess(await ChildSpawner.shared().spawn('tar', args, { PATH: process.env['PATH'] ?? '', LC_ALL: 'C' }), copy);
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
    if (!stdin?.writableNeedDrain || stdin.destroyed) return Promise.resolve();
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
    this.child.stdin?.end();
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
    if (!this.child.end) {
      this.killed = true;
      this.child.kill();
    }
    this.child.stdin?.destroy();
    this.copy?.abandon();
    await this.exited;
  }

  /** Why tar stopped on its own, once it has (a full disk, no tar at all ...); undefined while it runs or after a clean end. */
  failure(): TaskAssetsError | undefined {
    const end = this.child.end;
    if (end?.error !== undefined && !this.child.stdin)
      return new TaskAssetsError('EXTRACTION_FAILED', `GNU tar is needed to extract task archives: ${end.error}`);
    if (this.killed || !end || (end.code === 0 && this.ended)) return undefined;
    const said = end.stderr.trim().split('\n').slice(-3).join('; ');
    const how = end.error ?? `tar exited with ${end.code ?? end.signal}`;
    return new TaskAssetsError('EXTRACTION_FAILED', `${how}${this.ended ? '' : ' before the end of the archive'}: ${said || 'no message'}`);
  }

  private flush(): void {
    const stdin = this.child.stdin;
    if (this.pending.length > 0 && stdin && !stdin.destroyed) stdin.write(joined(this.pending));
    if (this.copyPending.length > 0) this.copy?.write(joined(this.copyPending));
    this.pending = [];
    this.copyPending = [];
    this.pendingBytes = 0;
  }
}

function joined(chunks: Buffer[]): Buffer {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
