import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { NeededImages } from '@arvo-rca/arvo-docker';
import { A2aClientFactory, PRODUCT_VERSION, readPeerCard, type ResumeRequest } from '@arvo-rca/a2a-protocol';
import { resultKeys } from '@arvo-rca/results';
import {
  readRecordResume,
  readTaskFolder,
  recordedTaskIds,
  RecordError,
  RecordLock,
  recordResult,
  RecordWriter,
  settingsDifferences,
  settingsHash,
  type RecordScan,
  type SolverIdentity,
} from '@arvo-rca/run-record';
import { WinstonLoggerFactory } from '@arvo-rca/task-logging';
import { GreenConfig } from '../green-config';
import { ProcessTable, type TaskRef } from '@arvo-rca/common';
import { ownerHost } from '@arvo-rca/sandbox';
import { NeededTaskData, TaskAssetsError, TaskAssetsService } from '../task-assets';
import { chooseDialect, SolverDialectChoice, TaskContextService, type KnownDialect } from '../tasks';
import type { AssessmentRequest } from './request/assessment-request';
import type { AssessmentListener, AssessmentReport } from './assessment-listener';
import { AssessmentSession, type RecordTask, type Session, type SessionServices } from './assessment-session';
import { findRecord } from './record/record-location';
import { scoringSettings, solverDifferences } from './record/scoring-settings';
import { resumedDialect, sessionDialect } from './record/session-dialect';
import { TaskFetcher } from './fetch-ahead/task-fetcher';

/** A resume that passed its checks: the record as found, and the tasks it runs. */
export interface ResumePlan {
  request: ResumeRequest;
  scan: RecordScan;
  tasks: RecordTask[];
  /** The dialect the solver is spoken to in: the record's, else its card's, else its first answer's (to come). */
  dialect: KnownDialect;
  /** The record's lock, held from the plan to the resume's end: no other session runs its tasks meanwhile. */
  lock: RecordLock;
}

// How long the solver's card may take to answer when an assessment begins.
const CARD_DEADLINE_MS = 15_000;

/**
 * Runs an assessment, up to `concurrency` tasks at a time, into a run record: each task is written the
 * moment it ends, so that a crash loses only the tasks that were running, and a resume runs the rest.
 * A task that failed around the solver is run again, up to TASK_ATTEMPTS times. The next tasks are fetched,
 * and the first of them prepared, while the current ones run (FETCH_AHEAD, see AssessmentSession).
 */
@Injectable()
export class AssessmentService implements OnApplicationShutdown {
  private readonly logger = new Logger(AssessmentService.name);
  private readonly services: SessionServices;
  private readonly settings: ReturnType<typeof scoringSettings>;
  /** The records this process writes now, each locked (see RecordLock). */
  private readonly locks = new Set<RecordLock>();
  private readonly lockOwner = { host: ownerHost(), processes: new ProcessTable() };

  constructor(
    private readonly tasks: TaskContextService,
    private readonly assets: TaskAssetsService,
    private readonly peers: A2aClientFactory,
    private readonly logging: WinstonLoggerFactory,
    neededImages: NeededImages,
    neededData: NeededTaskData,
    fetcher: TaskFetcher,
    @Inject(GreenConfig) config: GreenConfig,
  ) {
    this.services = { tasks, assets, neededImages, neededData, fetcher, attempts: config.TASK_ATTEMPTS, masking: config.MASK_TASK_IDS };
    this.settings = scoringSettings(config, tasks.sandbox);
  }

  /**
   * Runs the request's tasks into a new record. Once `signal` aborts (the requester canceled), running
   * tasks end and the rest do not start: all of them are recorded as interrupted.
   */
  async run(request: AssessmentRequest, listener: AssessmentListener, signal?: AbortSignal): Promise<AssessmentReport> {
    const { identity: solver, document } = await this.solverCard(request.purpleUrl);
    const known = chooseDialect(request.dialect, document);
    this.logger.log(`the solver is spoken to in ${known.dialect ?? 'the dialect of its first answer (the reply dialect until then)'} (${known.source})`);
    const writer = await RecordWriter.create(this.logging.runDirectory, {
      tasks: request.tasks.map((ref) => ref.taskId),
      ...(request.draw ? { draw: request.draw } : {}),
      concurrency: request.concurrency,
      shard: request.shard,
      assessor: { name: 'arvo-rca green agent', version: PRODUCT_VERSION },
      solver,
      // The record's keys are the wire's word for the dialect.
      ...(known.dialect ? { solver_protocol: known.dialect } : {}),
      solver_protocol_source: known.source,
      settings: this.settings,
      settings_hash: settingsHash(this.settings),
    });
    // Locked before its id is told: a resume of it sent while this first run writes it is refused.
    const lock = await this.lock(writer.folder, 'run');
    try {
      listener.recorded(writer.folder);
      listener.wrote?.({ kind: 'assessment', assessment: writer.assessment });
      const keys = resultKeys(request.tasks.map((ref) => ref.taskId));
      const tasks = request.tasks.map((ref, index) => ({ resultKey: keys[index], ref }));
      const dialect = sessionDialect(writer, known, this.logger);
      return await this.runSession(
        { writer, tasks, purpleUrl: request.purpleUrl, dialect, concurrency: request.concurrency, recorded: new Map() },
        listener,
        signal,
      );
    } finally {
      await this.unlock(lock);
    }
  }

  /**
   * What a resume of a record would run. Refused (a RecordError) when the solver or the scoring settings
   * differ from the recorded ones, or a task is one this agent cannot run, or another session writes the
   * record now (RECORD_BUSY); nothing is written. The plan holds the record's lock: `resume` releases it,
   * and so must whoever does not go on to `resume`.
   */
  async planResume(request: ResumeRequest): Promise<ResumePlan> {
    const folder = await findRecord(this.logging.runDirectory, request.recordId);
    // Taken before the record is read: what a second resume would plan is what the first runs.
    const lock = await this.lock(folder, 'resume');
    try {
      return await this.planLocked(request, folder, lock);
    } catch (error) {
      await this.unlock(lock);
      throw error;
    }
  }

  /** Gives up a plan's lock without resuming; nothing happens when the resume has already released it. */
  async dropPlan(plan: ResumePlan): Promise<void> {
    await this.unlock(plan.lock);
  }

  private async planLocked(request: ResumeRequest, folder: string, lock: RecordLock): Promise<ResumePlan> {
    const { scan, toRun } = await readRecordResume(folder, request.retryFailed);
    const { assessment } = scan;
    const document = await this.peers.peer(request.purpleUrl).cardDocument({ deadlineMs: CARD_DEADLINE_MS });
    const card = readPeerCard(document);
    const differences = [...solverDifferences(assessment.solver, card), ...settingsDifferences(assessment.settings, this.settings)];
    if (differences.length > 0) throw new RecordError('RESUME_REFUSED', `record ${assessment.id} was run otherwise: ${differences.join('; ')}`);
    const taskIds = recordedTaskIds(scan);
    const tasks = toRun.map((resultKey) => ({
      resultKey,
      ref: this.parseRecorded(taskIds.get(resultKey) ?? resultKey, assessment.id),
    }));
    return { request, scan, tasks, dialect: resumedDialect(assessment.solver_protocol, document), lock };
  }

  /**
   * Goes on with a record: its tasks without a usable result run (and, when asked, those that failed or
   * were cut short), and the Result covers the whole record. A damaged task is named, then run again.
   */
  async resume(plan: ResumePlan, listener: AssessmentListener, signal?: AbortSignal): Promise<AssessmentReport> {
    const { request, scan, tasks } = plan;
    try {
      const writer = await RecordWriter.resume(scan.runDir, scan.folder, { tasks: tasks.length, retryFailed: request.retryFailed });
      listener.recorded(writer.folder);
      listener.wrote?.({ kind: 'assessment', assessment: writer.assessment });
      await this.sendAgain(scan, listener, signal);
      for (const { task, reason } of scan.damaged) listener.report({ task, kind: 'note', text: `its record is damaged (${reason}); it runs again` });
      const concurrency = request.concurrency ?? scan.assessment.concurrency;
      const dialect = sessionDialect(writer, plan.dialect, this.logger);
      return await this.runSession({ writer, tasks, purpleUrl: request.purpleUrl, dialect, concurrency, recorded: scan.done }, listener, signal);
    } finally {
      await this.unlock(plan.lock);
    }
  }

  /** At shutdown the locks go before the process does: a green agent sharing the folder need not wait for them to go stale. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.locks].map((lock) => this.unlock(lock)));
  }

  private async lock(folder: string, kind: 'run' | 'resume'): Promise<RecordLock> {
    const lock = await RecordLock.take(folder, kind, this.lockOwner);
    this.locks.add(lock);
    return lock;
  }

  private async unlock(lock: RecordLock): Promise<void> {
    this.locks.delete(lock);
    await lock.release();
  }

  /**
   * The tasks of the earlier sessions, sent again to a requester that keeps the record, each read once the
   * requester has taken the one before: a couple of them in memory whatever the record's size and the
   * requester's pace. Stops when the requester goes away or cancels; the session goes on.
   */
  private async sendAgain(scan: RecordScan, listener: AssessmentListener, signal: AbortSignal | undefined): Promise<void> {
    const { wrote, taken } = listener;
    if (!wrote) return;
    for (const record of scan.done.values()) {
      if (taken && !(await taken(signal))) return;
      wrote({ kind: 'task', task: await readTaskFolder(scan.folder, record) });
    }
  }

  private async runSession(session: Session, listener: AssessmentListener, signal: AbortSignal | undefined): Promise<AssessmentReport> {
    const { writer } = session;
    // Said once, up front: a run the disk cannot hold at its concurrency goes on with fewer tasks at once.
    void this.tasks.diskOutlook(session.concurrency).then(
      (line) => line && this.logger.warn(line),
      () => undefined,
    );
    const done = await new AssessmentSession(session, this.services, listener, signal).run();
    await writer.endSession();
    listener.wrote?.({ kind: 'assessment', assessment: writer.assessment });
    const result = recordResult(writer.assessment, done);
    const file = await writer.writeResult(result);
    this.logger.log(`assessment of ${result.n_tasks} tasks done: ${result.n_scored} scored, record in ${writer.folder}`);
    return { result, recordDir: writer.folder, file };
  }

  /** The dialect a plain task request speaks to its solver in: the one the solver's card declares, else its first answer's. */
  async dialectFor(solverUrl: string): Promise<SolverDialectChoice> {
    return new SolverDialectChoice(chooseDialect(undefined, (await this.solverCard(solverUrl)).document));
  }

  /** The solver as its card says, and the card; a card that cannot be read is recorded as such, and the tasks say why. */
  private async solverCard(url: string): Promise<{ identity: SolverIdentity; document: unknown }> {
    try {
      const document = await this.peers.peer(url).cardDocument({ deadlineMs: CARD_DEADLINE_MS });
      return { identity: { ...readPeerCard(document), url }, document };
    } catch (error) {
      return { identity: { name: `(card not read: ${(error as Error).message})`, version: '', model: null, url }, document: undefined };
    }
  }

  private parseRecorded(taskId: string, recordId: string): TaskRef {
    try {
      return this.assets.parse(taskId);
    } catch (error) {
      if (error instanceof TaskAssetsError)
        throw new RecordError('RESUME_REFUSED', `record ${recordId} names task ${taskId}, which this green agent cannot run: ${error.message}`);
      throw error;
    }
  }
}
