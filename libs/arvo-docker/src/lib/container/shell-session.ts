import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { type CommandRun, EXEC_MARKER, releaseChunk } from '@arvo-rca/sandbox';
import type { ContainerHandle } from '../engine/container-handle';
import { FrameDemuxer, type StreamType } from './frame-demuxer';

// Reads one request at a time: a header line `<end mark> <kill marker> <argv prefix...>`, then the command
// text line by line up to a line holding only the end mark. It runs the prefix with the command as its last
// argument in a subshell (cwd, stdin from /dev/null, stderr into stdout, the kill marker in its
// environment), then prints the end mark and the exit status. Plain POSIX sh: the session needs nothing
// of the image but `sh`. The text is sent with one newline more than it has, taken off again here, so
// it arrives byte for byte. The session's own stderr is dropped: it would only carry the shell's job
// notices ("Killed" when a time limit kills a command), which a plain exec never showed.
// Before each command it reads how often the container's pids limit refused a fork (`pids.events`;
// builtins only: at the limit nothing can fork). When that happened since the last command ended,
// something left behind (a fork bomb that returned at once) is hammering the limit: it answers `pids`
// instead of running the command, and the sandbox ends those processes first.
const SESSION_SCRIPT = `exec 2>/dev/null
pids=; for d in /sys/fs/cgroup/pids /sys/fs/cgroup; do [ -r "$d/pids.events" ] && { pids=$d; break; }; done
refused() { count=0; [ -n "$pids" ] && read key count < "$pids/pids.events"; }
refused; last=$count
while IFS=' ' read -r mark marker prefix; do
  command=
  while IFS= read -r line; do
    [ "$line" = "$mark" ] && break
    command="$command$line
"
  done
  command=\${command%?}
  refused
  if [ "$count" -gt "$last" ]; then last=$count; printf '\\n%s pids\\n' "$mark"; continue; fi
  ( ${EXEC_MARKER}="$marker"; export ${EXEC_MARKER}; cd "$0" && exec $prefix "$command" </dev/null 2>&1 )
  status=$?
  refused; last=$count
  printf '\\n%s %s\\n' "$mark" "$status"
done`;

export interface SessionCommand {
  /** The argv before the command text: e.g. `timeout --kill-after=5 120 bash -lc`; no element may hold spaces. */
  prefix: string[];
  command: string;
  /** The value of EXEC_MARKER in the command's environment, for killing it on timeout. */
  marker: string;
  /** A payload is freed once the call returns: copy what you keep. */
  onOutput: (type: StreamType, payload: Buffer) => void;
  deadlineMs: number;
}

/**
 * One long-lived `sh` in a task container that runs each command as its own child process, so a
 * command costs a line on a pipe instead of an exec through the engine (a process start by the
 * runtime, three API calls). Commands run one at a time, with the same wrapper as a plain exec.
 */
export class ShellSession {
  private queue: Promise<unknown> = Promise.resolve();
  private current?: (chunk: Buffer) => void;
  private endCurrent?: () => void;
  private closed = false;
  /** Commands queued or running. */
  private pending = 0;

  private constructor(private readonly stream: Duplex) {
    const demuxer = new FrameDemuxer((_type, payload) => this.current?.(payload));
    stream.on('data', (chunk: Buffer) => {
      demuxer.push(chunk);
      releaseChunk(chunk);
    });
    const end = (): void => {
      this.closed = true;
      this.endCurrent?.();
    };
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
  }

  static async open(container: ContainerHandle, env: string[], workingDir: string): Promise<ShellSession> {
    const exec = await container.exec({ cmd: ['sh', '-c', SESSION_SCRIPT, workingDir], env, workingDir, stdin: true });
    return new ShellSession(exec.stream);
  }

  get usable(): boolean {
    return !this.closed;
  }

  /** Usable, and neither running a command nor holding one in its queue. */
  get idle(): boolean {
    return !this.closed && this.pending === 0;
  }

  /** Runs one command; the next waits until this one is done. */
  run(command: SessionCommand): Promise<CommandRun> {
    this.pending += 1;
    const next = this.queue.then(() => this.runNow(command)).finally(() => (this.pending -= 1));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.closed = true;
    this.stream.destroy();
  }

  private runNow(request: SessionCommand): Promise<CommandRun> {
    if (this.closed) return Promise.reject(new Error('the shell session of the sandbox ended'));
    const started = Date.now();
    const mark = `__arvo_rca_done_${randomBytes(12).toString('hex')}`;
    const scan = new EndMarkScan(Buffer.from(`\n${mark} `), (payload) => request.onOutput('stdout', payload));
    return new Promise<CommandRun>((resolve) => {
      const finish = (run: CommandRun): void => {
        clearTimeout(timer);
        this.current = undefined;
        this.endCurrent = undefined;
        resolve(run);
      };
      const timer = setTimeout(() => {
        // The command's state is unknown now: this session is done, the caller kills by marker.
        this.close();
        scan.flush();
        finish({ exitCode: undefined, hostDeadlineHit: true, elapsedMs: Date.now() - started });
      }, request.deadlineMs);
      // The command took the session down with it (killed its shell): it ends without an exit code.
      this.endCurrent = () => {
        scan.flush();
        finish({ exitCode: undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started });
      };
      this.current = (chunk) => {
        const status = scan.push(chunk);
        if (status === undefined) return;
        if (status === 'pids') return finish({ exitCode: undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started, pidsExhausted: true });
        const exitCode = Number(status);
        return finish({ exitCode: Number.isInteger(exitCode) ? exitCode : undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started });
      };
      const header = [mark, request.marker, ...request.prefix].join(' ');
      this.stream.write(`${header}\n${request.command}\n${mark}\n`);
    });
  }
}

/**
 * Finds the line `\n<mark> <status>\n` that ends a command, passing on every byte before it as it
 * arrives. Chunks go on as they are: only the few bytes that may start the mark are held back, copied
 * out of their chunk, which is freed once read. Joining each chunk to those bytes made a copy of every
 * chunk: a second gigabyte of dead buffers for the collector per gigabyte of output.
 */
class EndMarkScan {
  private held: Buffer = Buffer.alloc(0);
  /** What came after the mark, once it was seen: the status and its newline. */
  private afterMark?: Buffer;

  constructor(
    private readonly ending: Buffer,
    private readonly onOutput: (payload: Buffer) => void,
  ) {}

  /** The status once the end line is complete; undefined while the command runs. */
  push(chunk: Buffer): string | undefined {
    if (this.afterMark) {
      this.afterMark = Buffer.concat([this.afterMark, chunk]);
      return this.status();
    }
    const total = this.held.length + chunk.length;
    const at = this.find(chunk);
    if (at >= 0) {
      this.emit(this.slices(chunk, 0, at));
      this.afterMark = Buffer.concat(this.slices(chunk, at + this.ending.length, total));
      this.held = Buffer.alloc(0);
      return this.status();
    }
    const keepFrom = Math.max(0, total - (this.ending.length - 1));
    this.emit(this.slices(chunk, 0, keepFrom));
    this.held = Buffer.concat(this.slices(chunk, keepFrom, total));
    return undefined;
  }

  /** Passes on what was held back, when the command ends without its mark. */
  flush(): void {
    this.emit([this.held]);
    this.held = Buffer.alloc(0);
  }

  // Where the mark starts in held + chunk, or -1. One that starts in the held bytes ends in the seam.
  private find(chunk: Buffer): number {
    const seam = Buffer.concat([this.held, chunk.subarray(0, this.ending.length - 1)]);
    const inSeam = seam.indexOf(this.ending);
    if (inSeam >= 0) return inSeam;
    const inChunk = chunk.indexOf(this.ending);
    return inChunk < 0 ? -1 : this.held.length + inChunk;
  }

  // Bytes [from, to) of held + chunk, as views of the two.
  private slices(chunk: Buffer, from: number, to: number): Buffer[] {
    const held = this.held.length;
    return [this.held.subarray(Math.min(from, held), Math.min(to, held)), chunk.subarray(Math.max(0, from - held), Math.max(0, to - held))];
  }

  private emit(parts: Buffer[]): void {
    for (const part of parts) if (part.length > 0) this.onOutput(part);
  }

  private status(): string | undefined {
    const lineEnd = this.afterMark?.indexOf(0x0a) ?? -1;
    return lineEnd < 0 ? undefined : this.afterMark?.subarray(0, lineEnd).toString('ascii');
  }
}
