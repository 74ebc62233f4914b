import type { Duplex } from 'node:stream';
import { retryWithBackoff, WORKSPACE, type RetryPolicy } from '@arvo-rca/common';
import { engineReason, HeadTailCap, SandboxError, withDeadline } from '@arvo-rca/sandbox';
import type { ContainerHandle } from '../engine/container-handle';
import { FrameDemuxer } from './frame-demuxer';

const HAS_GNU_TAR = 'arvo-rca-boot: gnu-tar';
const NO_GNU_TAR = 'arvo-rca-boot: no-gnu-tar';
const TAR_EXITED = 'arvo-rca-boot: tar-exit ';
const KEPT_ALIVE = 'arvo-rca-boot: alive';
const MAX_LINE = 4096;
// Podman settles a container for a moment after it stops (its cleanup): until then it refuses an attach,
// saying the container's state is improper or that its attach socket is missing. Seen on a loaded machine,
// in about one restart in five.
const SETTLING = /state improper|attach socket/;
const SETTLE_RETRY: RetryPolicy = { maxRetries: 8, baseDelayMs: 50, maxDelayMs: 1000 };

/**
 * A task container's main process. It says whether the image has GNU tar before it reads a byte of its
 * stdin (a tar that is not GNU's would take the options below for a broken archive); reads a verb; on
 * `unpack`, unpacks the rest of its stdin into the workspace and says tar's exit status; then keeps the
 * container alive for `$0` seconds. The engine restarts it to end a task's processes: it then reads
 * `skip`, and the workspace stays as it is.
 * - `-i` reads on past an archive's end blocks, so that the rest of the workspace can follow the tree.
 * - `-b 256` reads the pipe in 128 KiB records, not 10 KiB: 136 to 148 ms against 154 to 165 ms for
 *   libarchive's tree.
 * - Tar's complaints go to stdout, ahead of its exit status: the engine relays stdout and stderr apart,
 *   and the status must not overtake the words that explain it.
 */
const BOOT_SCRIPT = [
  `case "$(tar --version 2>/dev/null)" in *'GNU tar'*) echo '${HAS_GNU_TAR}' ;; *) echo '${NO_GNU_TAR}' ;; esac`,
  // Up to a verb on a line of its own: an engine may hand on the attach request's own body first (podman does).
  'verb=',
  'while read -r line; do case "$line" in unpack|skip) verb="$line"; break ;; esac; done',
  `if [ "$verb" = unpack ]; then tar -x -i -b 256 -f - -C '${WORKSPACE}' --no-same-owner --no-same-permissions --delay-directory-restore --warning=no-timestamp 2>&1; echo "${TAR_EXITED}$?"; fi`,
  `echo '${KEPT_ALIVE}'`,
  'exec sleep "$0"',
].join('\n');

/** The main process of a task container that keeps it alive for `keepAliveS` seconds (see BOOT_SCRIPT). */
export function bootCommand(keepAliveS: number): { Entrypoint: string[]; Cmd: string[] } {
  return { Entrypoint: ['sh', '-c', BOOT_SCRIPT], Cmd: [String(keepAliveS)] };
}

/**
 * The attached input and output of a task container's main process (BOOT_SCRIPT), attached before the
 * container starts: the workspace goes in through its stdin, with no exec to open, as soon as it runs.
 * Its own output (anything but the boot's lines) says why a container stopped right after its start.
 */
export class ContainerBoot {
  private readonly output = new HeadTailCap(4096);
  private readonly said: Promise<'gnu-tar' | 'no-gnu-tar'>;
  /** Settles with tar's exit status once the boot says it, whether or not its input had ended. */
  readonly tarExit: Promise<number>;
  private readonly alive: Promise<void>;
  /** Settles once the attachment is gone: the container stopped, or the boot was closed. */
  readonly closed: Promise<void>;
  private pending = '';

  private constructor(private readonly stream: Duplex) {
    const heard = new Map<string, (line: string) => void>();
    const wait = (prefix: string): Promise<string> => new Promise((resolve) => heard.set(prefix, resolve));
    this.said = Promise.race([wait(HAS_GNU_TAR).then(() => 'gnu-tar' as const), wait(NO_GNU_TAR).then(() => 'no-gnu-tar' as const)]);
    this.tarExit = wait(TAR_EXITED).then((line) => Number(line.slice(TAR_EXITED.length)));
    this.alive = wait(KEPT_ALIVE).then(() => undefined);
    const demuxer = new FrameDemuxer((type, payload) => {
      if (type === 'stderr') return this.output.write(payload);
      this.pending += payload.toString('utf8');
      let end: number;
      while ((end = this.pending.indexOf('\n')) >= 0) {
        const line = this.pending.slice(0, end);
        this.pending = this.pending.slice(end + 1);
        const prefix = [...heard.keys()].find((known) => line.startsWith(known));
        if (prefix) heard.get(prefix)?.(line);
        else this.output.write(Buffer.from(`${line}\n`));
      }
      // Output with no end of line is nobody's protocol: kept as output, in bounded memory.
      if (this.pending.length > MAX_LINE) {
        this.output.write(Buffer.from(this.pending));
        this.pending = '';
      }
    });
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    this.closed = new Promise((resolve) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      // A main process that is gone makes writes fail: the container's state says why.
      stream.on('error', () => resolve());
    });
  }

  /** Attaches to a created container: its start runs the boot with this as its stdin. */
  static async attach(container: ContainerHandle): Promise<ContainerBoot> {
    return new ContainerBoot(await container.attach());
  }

  /** Attaches to a container just stopped, for its next start; again while the engine still settles it (podman). */
  static async attachStopped(container: ContainerHandle): Promise<ContainerBoot> {
    return retryWithBackoff(() => ContainerBoot.attach(container), SETTLE_RETRY, { retryable: (error) => SETTLING.test(engineReason(error)) });
  }

  /** Whether the image has GNU tar, as the boot says first; undefined when it stopped or was closed before. */
  async tar(): Promise<'gnu-tar' | 'no-gnu-tar' | undefined> {
    return Promise.race([this.said, this.closed.then(() => undefined)]);
  }

  /** Tells the boot to unpack its input: the workspace's tar goes into `input` next. */
  unpack(): void {
    this.stream.write('\nunpack\n');
  }

  /** Tells the boot to leave the workspace as it is; settles once it keeps the container alive, or is gone. */
  async skip(deadlineMs: number): Promise<void> {
    this.stream.end('\nskip\n');
    const what = `the container's main process did not say it keeps the container alive within ${Math.round(deadlineMs / 1000)} s`;
    await withDeadline(Promise.race([this.alive, this.closed]), deadlineMs, () => new SandboxError('SANDBOX_PREPARE_FAILED', what));
  }

  /** The stream the workspace's tar goes into, after `unpack()`. */
  get input(): Duplex {
    return this.stream;
  }

  /** Ends the input, and settles with tar's exit status (undefined when the boot was gone before it said). */
  async endInput(): Promise<number | undefined> {
    this.stream.end();
    return Promise.race([this.tarExit, this.closed.then(() => undefined)]);
  }

  /** The container's own output so far (tar's complaints, or why its start failed), without the boot's lines. */
  ownOutput(): string {
    return this.output.finish().output;
  }

  close(): void {
    this.stream.destroy();
  }
}
