import { spawn, type ChildProcess } from 'node:child_process';

/** What a helper's owner hears of it. */
export interface HelperEvents<Reply> {
  /** A reply, with the handle (a socket) it carries, if any. */
  message?(reply: Reply, handle: unknown): void;
  /** A new helper process is up (the first, or one after a helper was lost): the owner tells it what it must know. */
  started?(): void;
  /** The helper went (it exited or could not start), with why; the next use starts another. */
  lost?(why: string): void;
}

/**
 * A small Node process of this one's, running `program` by `node -e` (no file beside the bundle, nothing of
 * this process's environment or flags), spoken to over an IPC channel. Started on first use (or by `start`,
 * early, while this process is still small, as the one fork it costs copies this process's page tables); one
 * that goes is started again on the next use. It keeps this process alive only while its owner says it is busy.
 * `detached`: in a process group of its own, so that a signal to this process's group leaves it to do its work.
 */
export class HelperProcess<Request, Reply = never> {
  private process: ChildProcess | undefined;
  private busy = false;

  constructor(
    private readonly program: string,
    private readonly events: HelperEvents<Reply> = {},
    private readonly options: { detached?: boolean } = {},
  ) {}

  /** The helper's pid, while it runs. */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Starts the helper now, if it is not running. */
  start(): void {
    this.running();
  }

  /** Sends `request` to the helper, started if need be. A helper gone meanwhile hears nothing; its owner heard `lost`. */
  send(request: Request): void {
    this.sendTo(this.running(), request);
  }

  /** Sends `request` only to a helper already running: one started later hears of the state from `started`. */
  sendIfRunning(request: Request): void {
    if (this.process) this.sendTo(this.process, request);
  }

  /** While busy, the helper keeps this process alive; while idle, it does not. */
  holdOpen(busy: boolean): void {
    this.busy = busy;
    const helper = this.process;
    if (!helper) return;
    if (busy) {
      helper.ref();
      helper.channel?.ref();
    } else {
      helper.unref();
      helper.channel?.unref();
    }
  }

  private running(): ChildProcess {
    if (this.process) return this.process;
    const helper = spawn(process.execPath, ['-e', this.program], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: {},
      detached: this.options.detached ?? false,
    });
    if (this.events.message) {
      const onMessage = this.events.message;
      helper.on('message', (reply, handle) => onMessage(reply as Reply, handle));
    }
    helper.once('exit', (code, signal) => this.lost(helper, `stopped (${signal ?? `exit ${code}`})`));
    helper.once('error', (error) => this.lost(helper, `failed: ${error.message}`));
    this.process = helper;
    this.events.started?.();
    this.holdOpen(this.busy);
    return helper;
  }

  private lost(helper: ChildProcess, why: string): void {
    if (this.process !== helper) return;
    this.process = undefined;
    this.events.lost?.(why);
  }

  private sendTo(helper: ChildProcess, request: Request): void {
    if (helper.connected) helper.send(request as object);
  }
}
