import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { SPAWNER_PROGRAM, type SpawnerReply, type SpawnerRequest } from './spawner-program';

/** How a child started by the spawner ended. */
interface ChildEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last 4,096 characters it wrote to stderr. */
  stderr: string;
  /** Why it never ran (no such command), or why its end is unknown (the spawner stopped). */
  error?: string;
}

/** A child that reads its stdin from the owner: the rest of its stdio goes nowhere but its stderr's tail. */
export class SpawnedChild {
  /** How it ended, once it has. */
  end: ChildEnd | undefined;

  constructor(
    /** The child's stdin, a socket; absent when it never ran. */
    readonly stdin: Socket | undefined,
    /** Settles once it has ended; never rejects. */
    readonly ended: Promise<ChildEnd>,
    private readonly stop: () => void,
  ) {
    void ended.then((end) => (this.end = end));
  }

  /** SIGKILL; `ended` settles once it is gone. */
  kill(): void {
    if (!this.end) this.stop();
  }
}

interface Job {
  started(stdin: Socket | undefined): void;
  ended(end: ChildEnd): void;
}

/**
 * Starts child processes from a small process of its own instead of from this one. Node forks the whole
 * process on Linux to start a child, and the fork copies the page tables of every byte the process holds
 * on the main thread: `spawn` stops the event loop of a green agent holding 200 MiB for about 10 ms, and
 * of one holding 700 MiB for about 40 ms. The spawner holds next to nothing, so starting a child costs its
 * own thread about 1 ms and this one none; the child's stdin comes back over the IPC channel, so the
 * bytes go straight to it. Started on first use (or by `start`, early, while this process is still small),
 * it keeps nothing alive while no child runs, and a spawner that dies is started again on the next use.
 */
export class ChildSpawner {
  private static sharedSpawner: ChildSpawner | undefined;
  private process: ChildProcess | undefined;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;

  /** The one spawner of this process. */
  static shared(): ChildSpawner {
    ChildSpawner.sharedSpawner ??= new ChildSpawner();
    return ChildSpawner.sharedSpawner;
  }

  /** The spawner's pid, while it runs. */
  get pid(): number | undefined {
    return this.process?.pid;
  }

  /** Starts the spawner now, while this process holds little, so that the one fork it costs is cheap. */
  start(): void {
    this.running();
  }

  /** Runs `command` with only `env` as its environment; settles once it runs (or could not be started). */
  async spawn(command: string, args: string[], env: Record<string, string>): Promise<SpawnedChild> {
    const spawner = this.running();
    const id = this.nextId++;
    let started!: (stdin: Socket | undefined) => void;
    let ended!: (end: ChildEnd) => void;
    const running = new Promise<Socket | undefined>((resolve) => (started = resolve));
    const end = new Promise<ChildEnd>((resolve) => (ended = resolve));
    this.jobs.set(id, {
      started,
      ended: (outcome) => {
        this.jobs.delete(id);
        this.holdOpen();
        started(undefined);
        ended(outcome);
      },
    });
    this.holdOpen();
    this.send(spawner, { type: 'spawn', id, command, args, env });
    return new SpawnedChild(await running, end, () => this.send(spawner, { type: 'kill', id }));
  }

  private running(): ChildProcess {
    if (this.process) return this.process;
    // Nothing of this process's environment or flags: it needs none, and its children get theirs from each request.
    const spawner = spawn(process.execPath, ['-e', SPAWNER_PROGRAM], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], env: {} });
    spawner.on('message', (reply, handle) => this.receive(reply as SpawnerReply, handle));
    spawner.once('exit', (code, signal) => this.lost(spawner, `the spawner process stopped (${signal ?? `exit ${code}`})`));
    spawner.once('error', (error) => this.lost(spawner, `the spawner process failed: ${error.message}`));
    this.process = spawner;
    this.holdOpen();
    return spawner;
  }

  private receive(reply: SpawnerReply, handle: unknown): void {
    const job = this.jobs.get(reply.id);
    if (reply.type === 'started') {
      const stdin = handle instanceof Socket ? handle : undefined;
      if (job) job.started(stdin);
      else stdin?.destroy();
    } else {
      job?.ended({ code: reply.code, signal: reply.signal, stderr: reply.stderr, ...(reply.error === undefined ? {} : { error: reply.error }) });
    }
  }

  private lost(spawner: ChildProcess, why: string): void {
    if (this.process !== spawner) return;
    this.process = undefined;
    for (const job of [...this.jobs.values()]) job.ended({ code: null, signal: null, stderr: '', error: why });
  }

  private send(spawner: ChildProcess, request: SpawnerRequest): void {
    // A spawner gone meanwhile has ended every job already, through `lost`.
    if (spawner.connected) spawner.send(request);
  }

  /** The spawner keeps this process alive only while a child of it runs. */
  private holdOpen(): void {
    const spawner = this.process;
    if (!spawner) return;
    if (this.jobs.size > 0) {
      spawner.ref();
      spawner.channel?.ref();
    } else {
      spawner.unref();
      spawner.channel?.unref();
    }
  }
}
