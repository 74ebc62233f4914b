import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { Duplex, type Readable, type Writable } from 'node:stream';
import { CodedError } from '@arvo-rca/common';

type SshEngineErrorCode = 'SSH_NOT_INSTALLED' | 'SSH_ENGINE_REFUSED';

/** The `ssh` client is missing, or it could not reach the engine's machine (its own words in the message). */
class SshEngineError extends CodedError<SshEngineErrorCode> {}

/** What one connection runs: the ssh client, its arguments, its environment, and the host, for messages. */
export interface SshDial {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv | undefined;
  host: string;
}

type Handle = { ref?: () => unknown; unref?: () => unknown };

// Enough of ssh's stderr for its reason (a refused key, an unknown host key), never more.
const STDERR_KEPT = 4096;
const KILL_AFTER_MS = 5000;

/**
 * One connection to the engine: an `ssh` process running `docker system dial-stdio` on the engine's
 * machine, written through its stdin and read from its stdout, as the docker CLI does. ssh decrypts in
 * its own process, so this one sees plain pipe reads (ssh2 decrypting here grew the heap past the output
 * bound on Node 24 and 26). The process lives as long as the connection: destroying it kills ssh.
 */
export class SshStdioSocket extends Duplex {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private stderr = '';
  private received = false;
  private timeoutMs = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly dial: SshDial) {
    super({ allowHalfOpen: true });
    this.child = spawn(dial.command, dial.args, { env: dial.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const { stdin, stdout, stderr } = this.child;
    stdout.on('data', (chunk: Buffer) => {
      this.received = true;
      this.touch();
      if (!this.push(chunk)) stdout.pause();
    });
    stderr.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    // EPIPE once ssh is gone: its exit, below, says why.
    stdin.on('error', () => undefined);
    this.child.once('error', (error: NodeJS.ErrnoException) => this.destroy(spawnFailure(dial, error)));
    this.child.once('close', (code: number | null, signal: NodeJS.Signals | null) => this.exited(code, signal));
    // The end of the output is the end of the process: nothing more can be written either.
    this.once('end', () => this.destroy());
  }

  /** The ssh process's id, while it runs. */
  get pid(): number | undefined {
    return this.child.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  // The HTTP agent keeps an idle connection unreferenced, so that it holds the process open only while in use.
  ref(): this {
    for (const handle of this.handles()) handle.ref?.();
    return this;
  }

  unref(): this {
    for (const handle of this.handles()) handle.unref?.();
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  /** Emits `timeout` after `ms` without a byte either way, as a socket does; 0 turns it off. */
  setTimeout(ms: number, listener?: () => void): this {
    this.timeoutMs = ms;
    if (listener) this.once('timeout', listener);
    this.touch();
    return this;
  }

  override _read(): void {
    this.child.stdout.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.touch();
    // A failed write means ssh has ended; its exit reports it, with ssh's reason.
    this.child.stdin.write(chunk, () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    // ssh passes the end on, and dial-stdio closes its side of the engine's connection for writing.
    this.child.stdin.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    if (this.pid !== undefined) {
      this.child.kill('SIGTERM');
      const kill = setTimeout(() => this.child.kill('SIGKILL'), KILL_AFTER_MS).unref();
      this.child.once('exit', () => clearTimeout(kill));
    }
    this.child.stdin.destroy();
    this.child.stdout.destroy();
    this.child.stderr.destroy();
    callback(error);
  }

  private exited(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.destroyed) return;
    if (code !== 0 && !this.received) {
      const how = signal ?? `exit status ${code}`;
      const said = this.stderr.trim() || 'nothing on stderr';
      this.destroy(new SshEngineError('SSH_ENGINE_REFUSED', `ssh to the engine at ${this.dial.host} failed (${how}): ${said}`));
      return;
    }
    this.push(null);
  }

  private touch(): void {
    clearTimeout(this.timer);
    this.timer = this.timeoutMs > 0 ? setTimeout(() => this.emit('timeout'), this.timeoutMs).unref() : undefined;
  }

  private handles(): Handle[] {
    return [this.child, this.child.stdin, this.child.stdout, this.child.stderr] as Handle[];
  }
}

function spawnFailure(dial: SshDial, error: NodeJS.ErrnoException): SshEngineError {
  if (error.code === 'ENOENT') {
    return new SshEngineError('SSH_NOT_INSTALLED', `no ssh client (${dial.command}) to reach the engine at ${dial.host}: install OpenSSH's client`, {
      cause: error,
    });
  }
  return new SshEngineError('SSH_ENGINE_REFUSED', `ssh to the engine at ${dial.host} could not start: ${error.message}`, { cause: error });
}
