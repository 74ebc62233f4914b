import type { TaskRecord } from '@arvo-rca/results';
import { SOURCES_FORMAT } from '@arvo-rca/run-record';
import type { OpenRecord } from './record-catalog';
import type { RunDirectories } from './run-directories';
import { summarize, taskRow } from './run-summary';
import { taskLog } from './task-log';
import { trajectorySteps } from './trajectory-steps';
import type { FileState, SourceExcerpt, TaskLog, TaskPage, TrajectoryView } from './viewer-api';
import { ViewerError } from './viewer-error';

// The most the viewer reads of a file: whole text files up to 4 MiB, a trajectory up to 64 MiB, the last 4 MiB of a log.
const TEXT_LIMIT = 4 * 1024 * 1024;
const TRAJECTORY_LIMIT = 64 * 1024 * 1024;
const LOG_LIMIT = 4 * 1024 * 1024;

type FileField = keyof TaskRecord['files'];

/** A task's files, read only through the paths its record names, each confined to the run directories. */
export class TaskFiles {
  constructor(private readonly dirs: RunDirectories) {}

  async page(record: OpenRecord, resultKey: string): Promise<TaskPage> {
    const file = this.task(record, resultKey);
    const [crash, fix, submission, sources, trajectory, log] = await Promise.all([
      this.text(record, file, 'crash_report'),
      this.text(record, file, 'fix'),
      this.text(record, file, 'submission'),
      this.text(record, file, 'sources'),
      this.state(record, file, 'trajectory'),
      this.state(record, file, 'log'),
    ]);
    const position = record.scan.resultKeys.indexOf(resultKey);
    return {
      run: summarize(record),
      row: taskRow(file),
      task_id: file.task_id,
      masked_id: file.masked_id ?? null,
      context_id: file.context_id,
      finished_at: file.finished_at,
      metrics: { ...file.metrics },
      crash_report: crash,
      fix,
      submission,
      sources: sources === null ? null : sourceExcerpts(sources),
      trajectory,
      log,
      previous: record.scan.resultKeys[position - 1] ?? null,
      next: record.scan.resultKeys[position + 1] ?? null,
    };
  }

  async trajectory(record: OpenRecord, resultKey: string): Promise<TrajectoryView> {
    const file = this.task(record, resultKey);
    const read = await this.read(record, file, 'trajectory', TRAJECTORY_LIMIT);
    if (read.cut) throw new ViewerError('UNREADABLE', `the trajectory of ${resultKey} is larger than ${TRAJECTORY_LIMIT / 1024 / 1024} MiB`);
    return trajectorySteps(read.text);
  }

  async log(record: OpenRecord, resultKey: string): Promise<TaskLog> {
    const file = this.task(record, resultKey);
    const read = await this.read(record, file, 'log', LOG_LIMIT, true);
    return taskLog(read.text, file.context_id, read.cut);
  }

  private task(record: OpenRecord, resultKey: string): TaskRecord {
    const file = record.scan.done.get(resultKey);
    if (file) return file;
    const id = record.location.key;
    if (!record.scan.resultKeys.includes(resultKey)) throw new ViewerError('TASK_NOT_FOUND', `run record ${id} has no task ${JSON.stringify(resultKey)}`);
    const damaged = record.scan.damaged.find((task) => task.task === resultKey);
    throw new ViewerError('TASK_NOT_FOUND', `task ${resultKey} of run record ${id} has no usable result: ${damaged ? damaged.reason : 'none was recorded'}`);
  }

  private async read(record: OpenRecord, file: TaskRecord, field: FileField, limit: number, fromEnd = false): Promise<{ text: string; cut: boolean }> {
    const path = file.files[field];
    if (path === null) throw new ViewerError('FILE_NOT_FOUND', `task ${file.task} has no ${field.replace('_', ' ')} in its record`);
    const real = await this.dirs.resolveFile(record.location.runDir, path);
    return this.dirs.readText(real, limit, fromEnd);
  }

  // A text shown on the page; null when the record has none, cannot be read, or points outside.
  private async text(record: OpenRecord, file: TaskRecord, field: FileField): Promise<string | null> {
    return this.read(record, file, field, TEXT_LIMIT).then(
      (read) => (read.cut ? `${read.text}\n[... cut at ${TEXT_LIMIT / 1024 / 1024} MiB ...]` : read.text),
      () => null,
    );
  }

  private async state(record: OpenRecord, file: TaskRecord, field: FileField): Promise<FileState> {
    const path = file.files[field];
    if (path === null) return 'none';
    return this.dirs.resolveFile(record.location.runDir, path).then(
      (): FileState => 'present',
      (error: unknown): FileState => (error instanceof ViewerError && error.code === 'OUTSIDE_RUN_DIRS' ? 'outside' : 'missing'),
    );
  }
}

// The excerpts of sources.json that have the expected shape; anything else is left out.
function sourceExcerpts(text: string): SourceExcerpt[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const file = value as { format?: unknown; files?: unknown };
  if (file?.format !== SOURCES_FORMAT || !Array.isArray(file.files)) return null;
  return file.files.filter(isExcerpt);
}

function isExcerpt(value: unknown): value is SourceExcerpt {
  const excerpt = value as Partial<SourceExcerpt> | null;
  const spans = (list: unknown): boolean => Array.isArray(list) && list.every((span) => typeof span?.start === 'number' && typeof span?.end === 'number');
  return (
    typeof excerpt?.path === 'string' &&
    typeof excerpt.start === 'number' &&
    Array.isArray(excerpt.lines) &&
    excerpt.lines.every((line) => typeof line === 'string') &&
    spans(excerpt.fix) &&
    spans(excerpt.predicted) &&
    (excerpt.predicted ?? []).every((span) => typeof span.rank === 'number')
  );
}
