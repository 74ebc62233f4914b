import { HelperProcess } from '@arvo-rca/common';
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
  private readonly helper = new HelperProcess<SpawnerRequest, SpawnerReply>(SPAWNER_PROGRAM, {
    message: (reply, handle) => this.receive(reply, handle),
    lost: (why) => this.lost(`the spawner process ${why}`),
  });
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;

  /** The one spawner of this process. */
  static shared(): ChildSpawner {
    ChildSpawner.sharedSpawner ??= new ChildSpawner();
    return ChildSpawner.sharedSpawner;
  }

  /** The spawner's pid, while it runs. */
  get pid(): number | undefined {
    return this.helper.pid;
  }

  /** Starts the spawner now, while this process holds little, so that the one fork it costs is cheap. */
  start(): void {
    this.helper.start();
  }

  /** Runs `command` with only `env` as its environment; settles once it runs (or could not be started). */
  async spawn(command: string, args: string[], env: Record<string, string>): Promise<SpawnedChild> {
    const id = this.nextId++;
    let started!: (stdin: Socket | undefined) => void;
    let ended!: (end: ChildEnd) => void;
    const running = new Promise<Socket | undefined>((resolve) => (started = resolve));
    const end = new Promise<ChildEnd>((resolve) => (ended = resolve));
    this.jobs.set(id, {
      started,
      ended: (outcome) => {
        this.jobs.delete(id);
        this.helper.holdOpen(this.jobs.size > 0);
        started(undefined);
        ended(outcome);
      },
    });
    this.helper.holdOpen(true);
    this.helper.send({ type: 'spawn', id, command, args, env });
    // The kill goes to the spawner running now. One started after a loss never heard of this id and ignores
    // it; the loss already ended the child's job, so `kill` does not send it then anyway.
    return new SpawnedChild(await running, end, () => this.helper.sendIfRunning({ type: 'kill', id }));
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

  /** A spawner gone ends every job it ran. */
  private lost(why: string): void {
    for (const job of [...this.jobs.values()]) job.ended({ code: null, signal: null, stderr: '', error: why });
  }
}
