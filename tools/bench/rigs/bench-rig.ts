import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { A2aClientFactory, parseCommandResult, TASK_FINISHED } from '@arvo-rca/a2a-protocol';
import { freePort } from '@arvo-rca/a2a-protocol/testing';
import { LABEL_CONTEXT, LABEL_OWNER } from '@arvo-rca/arvo-docker';
import { ownerHost } from '@arvo-rca/sandbox';
import { BENCH_CONTAINER_DISK } from './bench-sandbox-options';
import type { TaskRecordDraft } from '@arvo-rca/results';
import { elapsedMs } from '../report/bench-stats';
import { GreenProcess } from '../probes/green-process';
import { SolverStandIn, type SolverSession } from './solver-stand-in';

/** The task every scenario runs: the smallest bundled sample. */
export const BENCH_TASK = 'sample:1';
const TASK_DEADLINE_MS = 600_000;

/** What the green agent reported about one task (the fields the benchmark checks). */
export interface TaskRun {
  seconds: number;
  state: string;
  outcome?: Pick<TaskRecordDraft, 'finish_reason' | 'run' | 'metrics'>;
}

/**
 * The green agent as a real process, a solver stand-in it hands tasks to, and a driver that sends
 * it tasks: each scenario runs tasks through the green agent's real task path (assets, container,
 * A2A both ways, scoring, cleanup) and does its measuring in the stand-in's sessions.
 */
export class BenchRig {
  private readonly clients = new A2aClientFactory();

  private constructor(
    readonly green: GreenProcess,
    readonly standIn: SolverStandIn,
    readonly docker: Docker,
    private readonly scratch: string,
  ) {}

  /**
   * `env` adds to or replaces the green agent's settings (another SAMPLES_DIR, say); its task folders,
   * cache and logs go into a scratch folder under `scratchParent`.
   */
  static async start(root: string, docker: Docker, env: NodeJS.ProcessEnv = {}, scratchParent = tmpdir()): Promise<BenchRig> {
    const scratch = mkdtempSync(join(scratchParent, 'arvo-rca-bench-'));
    const standIn = await SolverStandIn.start();
    try {
      mkdirSync(join(scratch, 'tasks'));
      mkdirSync(join(scratch, 'logs', 'log_bench'), { recursive: true });
      const green = await GreenProcess.start(root, await freePort(), {
        SANDBOX: 'docker',
        PURPLE_AGENT_URL: standIn.url,
        TMP_DIR: join(scratch, 'tasks'),
        CACHE_DIR: join(scratch, 'cache'),
        LOG_DIR: join(scratch, 'logs'),
        LOG_RUN_DIR: join(scratch, 'logs', 'log_bench'),
        SAMPLES_DIR: join(root, 'samples'),
        TASK_TIMEOUT_S: '900',
        CONTAINER_DISK: BENCH_CONTAINER_DISK,
        LOG_LEVEL: 'info',
        ...env,
      });
      standIn.greenUrl = green.url;
      return new BenchRig(green, standIn, docker, scratch);
    } catch (error) {
      await standIn.close();
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
  }

  /** Sends `Task ID: <task>` to the green agent and follows the task to its result. */
  async runTask(task = BENCH_TASK): Promise<TaskRun> {
    const started = process.hrtime.bigint();
    const run: TaskRun = { seconds: 0, state: 'unknown' };
    for await (const event of this.clients.peer(this.green.url).streamText(randomUUID(), `Task ID: ${task}`, { deadlineMs: TASK_DEADLINE_MS })) {
      if (event.kind === 'artifact') run.outcome = event.data[0] as TaskRun['outcome'];
      if (event.kind === 'status' || event.kind === 'task') run.state = event.state;
    }
    run.seconds = elapsedMs(started) / 1000;
    return run;
  }

  /**
   * Runs `count` tasks at once and, once every one of them has been handed to the stand-in (its
   * container running), `body` with their sessions; then each task finishes with [TASK FINISHED].
   */
  async withSessions<T>(count: number, body: (sessions: SolverSession[]) => Promise<T>): Promise<{ result: T; tasks: TaskRun[] }> {
    const sessions: SolverSession[] = [];
    const arrived = deferred<void>();
    const done = deferred<void>();
    this.standIn.handler = async (session) => {
      sessions.push(session);
      if (sessions.length === count) arrived.resolve();
      await done.promise;
      expectFinished(await session.send(TASK_FINISHED));
    };
    const tasks = Array.from({ length: count }, () =>
      this.runTask().then(
        (run) => {
          arrived.reject(new Error(`a task ended before all ${count} were handed over: ${describeRun(run)}\n${this.green.logTail}`));
          return run;
        },
        (error: Error) => {
          arrived.reject(error);
          throw error;
        },
      ),
    );
    try {
      await arrived.promise;
      return { result: await body(sessions), tasks: await this.settle(tasks, done) };
    } catch (error) {
      await this.settle(tasks, done).catch(() => undefined); // The first failure is the one to report.
      throw error;
    }
  }

  /** The container of the task on `contextId`, found by the label the green agent gives it. */
  async containerOf(contextId: string): Promise<Docker.Container> {
    const [info] = await this.docker.listContainers({ filters: { label: [`${LABEL_CONTEXT}=${contextId}`] } });
    if (!info) throw new Error(`no running container is labelled ${LABEL_CONTEXT}=${contextId}`);
    return this.docker.getContainer(info.Id);
  }

  /** Stops the green agent (its shutdown removes its containers), checks that it left none, removes the scratch area. */
  async stop(): Promise<string[]> {
    const pid = this.green.pid;
    await this.green.stop();
    await this.standIn.close();
    rmSync(this.scratch, { recursive: true, force: true });
    const all = await this.docker.listContainers({ all: true, filters: { label: [LABEL_OWNER] } });
    const left = all.filter((info) => info.Labels[LABEL_OWNER]?.startsWith(`${ownerHost()}:${pid}:`));
    await Promise.allSettled(left.map((info) => this.docker.getContainer(info.Id).remove({ force: true, v: true })));
    return left.map((info) => info.Names[0] ?? info.Id);
  }

  private async settle(tasks: Promise<TaskRun>[], done: Deferred<void>): Promise<TaskRun[]> {
    done.resolve();
    const runs = await Promise.all(tasks);
    const failed = runs.filter((run) => run.outcome?.finish_reason !== 'finished');
    if (failed.length > 0) throw new Error(`${failed.length} task(s) did not finish normally: ${failed.map(describeRun).join('; ')}`);
    if (this.standIn.failures.length > 0) throw this.standIn.failures.splice(0)[0];
    return runs;
  }
}

/** Throws unless the green agent's reply to a command is a result with return code 0. */
export function expectSuccess(reply: string, command: string): string {
  const result = parseCommandResult(reply);
  if (!result) throw new Error(`"${command}" was answered with no command result: ${reply.slice(0, 300)}`);
  if (result.returncode !== 0) {
    const why = result.timedOut ?? `output: ${JSON.stringify(result.output.slice(0, 120))} ... ${JSON.stringify(result.output.slice(-200))}`;
    throw new Error(`"${command}" exited with ${result.returncode} through the green agent; ${why}`);
  }
  return result.output;
}

function expectFinished(reply: string): void {
  if (!reply.startsWith('[TASK COMPLETED]')) throw new Error(`[TASK FINISHED] was answered with: ${reply.slice(0, 300)}`);
}

function describeRun(run: TaskRun): string {
  const outcome = run.outcome;
  return outcome
    ? `${outcome.finish_reason}, ${outcome.metrics.status}${outcome.metrics.detail ? `: ${outcome.metrics.detail}` : ''}`
    : `no result (state ${run.state})`;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined); // Rejections are read by whoever awaits; none may go unhandled.
  return { promise, resolve, reject };
}
