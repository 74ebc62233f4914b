import { randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import type { NeededImages } from '@arvo-rca/arvo-docker';
import type { TaskRef } from '@arvo-rca/common';
import type { TaskRecord } from '@arvo-rca/results';
import type { RecordWriter } from '@arvo-rca/run-record';
import type { NeededTaskData, TaskAssetsService } from '../task-assets';
import { taskRecordDraft, type RanTask, type SolverDialectChoice, type TaskContextService, type TaskOrder } from '../tasks';
import type { AssessmentListener } from './assessment-listener';
import { FetchAhead } from './fetch-ahead/fetch-ahead';
import type { TaskFetcher } from './fetch-ahead/task-fetcher';

/** A task of a record: its result key (its task id, `#2` added for a repeat), and the task it names. */
export interface RecordTask {
  resultKey: string;
  ref: TaskRef;
}

/** One session of an assessment: its first run, or a resume. */
export interface Session {
  writer: RecordWriter;
  tasks: RecordTask[];
  purpleUrl: string;
  /** The solver's dialect, shared by the session's tasks: known up front, or found by the first that hears the solver answer. */
  dialect: SolverDialectChoice;
  concurrency: number;
  /** What the record held before this session: the Result covers both. */
  recorded: ReadonlyMap<string, TaskRecord>;
}

/** What every session uses of the green agent, and its settings. */
export interface SessionServices {
  tasks: TaskContextService;
  assets: TaskAssetsService;
  neededImages: NeededImages;
  neededData: NeededTaskData;
  fetcher: TaskFetcher;
  /** TASK_ATTEMPTS. */
  attempts: number;
  /** MASK_TASK_IDS. */
  masking: boolean;
}

/** A task's turn, which its run prepared ahead waits for. */
interface Turn {
  promise: Promise<void>;
  come(): void;
  withdraw(): void;
}

/**
 * Runs a session's tasks, up to its concurrency at a time in the order of the list, each written to the
 * record the moment it ends. While tasks run, the next ones are fetched ahead (FetchAhead), and the first of
 * those (PREPARE_AHEAD, as many as run at once unless told) are prepared: their sandboxes start before their turn, and the solver gets
 * each the moment its turn comes. Once the session ends, a sandbox prepared for a turn that never came goes
 * as any task's does.
 */
export class AssessmentSession {
  private readonly turns = new Map<number, Turn>();
  /** The runs of the tasks prepared ahead, by index: each is its task's first attempt. */
  private readonly early = new Map<number, Promise<RanTask>>();
  private readonly orders = new Map<number, TaskOrder>();

  constructor(
    private readonly session: Session,
    private readonly services: SessionServices,
    private readonly listener: AssessmentListener,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private readonly report = (line: Parameters<AssessmentListener['report']>[0]): void => this.listener.report(line);

  /** The records of the session's tasks by result key, those the record held before included. */
  async run(): Promise<Map<string, TaskRecord>> {
    const { tasks, concurrency } = this.session;
    const { fetcher, neededImages, neededData, assets } = this.services;
    const done = new Map(this.session.recorded);
    const slots = pLimit(concurrency);
    const window = fetcher.windowFor(concurrency);
    const work = { fetch: (ref: TaskRef, stop: AbortSignal) => fetcher.fetch(ref, this.report, stop), prepare: (index: number) => this.prepare(index) };
    const ahead = new FetchAhead(
      tasks.map((task) => task.ref),
      window,
      fetcher.preparedFor(concurrency),
      work,
      this.signal,
    );
    // The disk budgets never remove the image or the task data that a task still to end here needs.
    const images = neededImages.hold(tasks.map((task) => assets.image(task.ref)));
    const data = neededData.hold(tasks.map((task) => task.ref.taskId));
    const runTask = async (task: RecordTask, index: number): Promise<void> => {
      ahead.turnOf(index);
      done.set(task.resultKey, await this.runTask(task, index));
    };
    try {
      await Promise.all(
        tasks.map((task, index) =>
          slots(() =>
            runTask(task, index).finally(() => {
              images.release(assets.image(task.ref));
              data.release(task.ref.taskId);
              ahead.taskEnded();
            }),
          ),
        ),
      );
    } finally {
      images.releaseAll();
      data.releaseAll();
      await ahead.close();
      for (const turn of this.turns.values()) turn.withdraw();
      await Promise.allSettled(this.early.values());
    }
    return done;
  }

  private async runTask(task: RecordTask, index: number): Promise<TaskRecord> {
    const { taskId } = task.ref;
    this.report({ task: taskId, kind: 'started' });
    this.turns.get(index)?.come();
    const { ran, attempts } = await this.runAttempts(task, index);
    // A task run again on a resume (--retry-failed) counts the attempts of its earlier sessions too.
    const earlier = this.session.recorded.get(task.resultKey)?.run.attempts ?? 0;
    const record = taskRecordDraft(task.resultKey, ran.outcome, attempts + earlier);
    const written = await this.session.writer.writeTask(record, ran.evidence);
    this.listener.wrote?.({ kind: 'task', task: written });
    this.report({ task: taskId, kind: 'finished', status: record.metrics.status, detail: record.metrics.detail ?? '' });
    return written.record;
  }

  /** The task, run again while it fails around the solver (never when the solver got it wrong, nor once interrupted). */
  private async runAttempts(task: RecordTask, index: number): Promise<{ ran: RanTask; attempts: number }> {
    const { attempts: allowed, tasks } = this.services;
    const { taskId } = task.ref;
    for (let attempt = 1; ; attempt++) {
      const ran = await ((attempt === 1 && this.early.get(index)) || tasks.runTask(task.ref, this.orderOf(index)));
      const { metrics } = ran.outcome;
      if (metrics.status !== 'failed' || attempt >= allowed || this.signal?.aborted) return { ran, attempts: attempt };
      this.report({ task: taskId, kind: 'note', text: `attempt ${attempt} of ${allowed} failed (${metrics.detail ?? 'no reason'}); running it again` });
    }
  }

  /** Task `index`'s run, begun before its turn: its sandbox starts now, and it is handed over at its turn. */
  private prepare(index: number): void {
    let come = (): void => undefined;
    let withdraw = (): void => undefined;
    const promise = new Promise<void>((resolve, reject) => {
      come = resolve;
      withdraw = () => reject(new Error('the assessment ended before its turn'));
    });
    promise.catch(() => undefined); // Heard by the run, unless it ended before it waits for its turn.
    this.turns.set(index, { promise, come, withdraw });
    const task = this.session.tasks[index];
    this.early.set(index, this.services.tasks.runTask(task.ref, { ...this.orderOf(index), turn: promise }));
  }

  /** How task `index` is run, the same for every attempt. */
  private orderOf(index: number): TaskOrder {
    const known = this.orders.get(index);
    if (known) return known;
    const { taskId } = this.session.tasks[index].ref;
    const order: TaskOrder = {
      solverUrl: this.session.purpleUrl,
      dialect: this.session.dialect,
      // A fresh masked id per task and session: nothing the solver sees ties it to the case.
      maskedId: this.services.masking ? `task:${randomBytes(4).toString('hex')}` : undefined,
      progress: (event) => this.report({ task: taskId, ...event }),
      signal: this.signal,
    };
    this.orders.set(index, order);
    return order;
  }
}
