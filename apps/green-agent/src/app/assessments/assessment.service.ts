import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TaskProgressLine } from '@arvo-rca/a2a-protocol';
import { aggregateResults, type AssessmentResult, type TaskRecord } from '@arvo-rca/rca-eval';
import { TaskContextService, type TaskOutcome } from '../tasks/task-context.service';
import type { TaskProgressEvent } from '../tasks/task-progress';
import type { AssessmentRequest } from './assessment-request';

/** The run's log directory; results go to `<it>/results/`. */
export const RUN_LOG_DIR = Symbol('RUN_LOG_DIR');

export interface AssessmentReport {
  result: AssessmentResult;
  /** Where the same JSON was saved. */
  file: string;
}

/** Runs an assessment: its tasks, up to `concurrency` at a time, then the aggregated Result. */
@Injectable()
export class AssessmentService {
  private readonly logger = new Logger(AssessmentService.name);

  constructor(
    private readonly tasks: TaskContextService,
    @Inject(RUN_LOG_DIR) private readonly runLogDir: string,
  ) {}

  /**
   * Runs the request's tasks; `report` hears each task start, step and finish, as typed lines. Once
   * `signal` aborts (the requester canceled), running tasks end and the rest do not start: all of them
   * are recorded as interrupted.
   */
  async run(request: AssessmentRequest, report: (line: TaskProgressLine) => void, signal?: AbortSignal): Promise<AssessmentReport> {
    const started = Date.now();
    const outcomes = await mapWithConcurrency(request.tasks, request.concurrency, async (ref) => {
      const task = ref.key;
      report({ task, kind: 'started' });
      const outcome = await this.tasks.runTask(ref, request.purpleUrl, (event) => report(taskLine(task, event)), signal);
      report({ task, kind: 'finished', status: outcome.metrics.status, detail: outcome.metrics.detail ?? '' });
      return outcome;
    });
    const records: TaskRecord[] = outcomes.map((outcome: TaskOutcome) => ({
      taskId: outcome.taskKey,
      metrics: outcome.metrics,
      run: { seconds: outcome.seconds, commands: outcome.commands, failedCommands: outcome.failedCommands },
    }));
    const result = aggregateResults(records, (Date.now() - started) / 1000, request.shard);
    const file = await this.save(result);
    this.logger.log(`assessment of ${records.length} tasks done: ${result.n_scored} scored, results in ${file}`);
    return { result, file };
  }

  private async save(result: AssessmentResult): Promise<string> {
    const dir = join(this.runLogDir, 'results');
    await mkdir(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(dir, `assessment-${stamp}-${randomUUID().slice(0, 8)}.json`);
    await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
    return file;
  }
}

// What a task tells of itself, as the assessment's line about it.
function taskLine(task: string, event: TaskProgressEvent): TaskProgressLine {
  return event.kind === 'step' ? { task, kind: 'step', step: event.step, command: event.command } : { task, kind: 'note', text: event.text };
}

/** Runs `work` on every item, at most `limit` at a time; results in the items' order. */
export async function mapWithConcurrency<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
