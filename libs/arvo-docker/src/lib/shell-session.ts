import type Docker from 'dockerode';
import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { type CommandRun, EXEC_MARKER } from '@arvo-rca/sandbox';
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
    stream.on('data', (chunk: Buffer) => demuxer.push(chunk));
    const end = (): void => {
      this.closed = true;
      this.endCurrent?.();
    };
    stream.once('end', end);
    stream.once('close', end);
    stream.once('error', end);
  }

  static async open(container: Docker.Container, env: string[], workingDir: string): Promise<ShellSession> {
    const exec = await container.exec({
      Cmd: ['sh', '-c', SESSION_SCRIPT, workingDir],
      Env: env,
      WorkingDir: workingDir,
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    return new ShellSession(await exec.start({ hijack: true, stdin: true }));
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
    const ending = Buffer.from(`\n${mark} `);
    // Bytes held back until they cannot be the start of the end mark.
    let pending: Buffer = Buffer.alloc(0);
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
        if (pending.length > 0) request.onOutput('stdout', pending);
        finish({ exitCode: undefined, hostDeadlineHit: true, elapsedMs: Date.now() - started });
      }, request.deadlineMs);
      // The command took the session down with it (killed its shell): it ends without an exit code.
      this.endCurrent = () => {
        if (pending.length > 0) request.onOutput('stdout', pending);
        finish({ exitCode: undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started });
      };
      this.current = (chunk) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        const at = pending.indexOf(ending);
        if (at >= 0) {
          const lineEnd = pending.indexOf(0x0a, at + ending.length);
          if (lineEnd < 0) return;
          if (at > 0) request.onOutput('stdout', pending.subarray(0, at));
          const status = pending.subarray(at + ending.length, lineEnd).toString('ascii');
          if (status === 'pids') return finish({ exitCode: undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started, pidsExhausted: true });
          const exitCode = Number(status);
          return finish({ exitCode: Number.isInteger(exitCode) ? exitCode : undefined, hostDeadlineHit: false, elapsedMs: Date.now() - started });
        }
        const keep = Math.min(pending.length, ending.length - 1);
        if (pending.length > keep) request.onOutput('stdout', pending.subarray(0, pending.length - keep));
        pending = pending.subarray(pending.length - keep);
      };
      const header = [mark, request.marker, ...request.prefix].join(' ');
      this.stream.write(`${header}\n${request.command}\n${mark}\n`);
    });
  }
}
