import pLimit from 'p-limit';
import { RecordLayout, scanRecord, type RecordScan } from '@arvo-rca/run-record';
import type { RunDirectories, RecordLocation } from './run-directories';
import type { RunList } from './viewer-api';
import { summarize } from './run-summary';
import { ViewerError } from './viewer-error';

/** A record found and read: where it is, and every task's state. */
export interface OpenRecord {
  location: RecordLocation;
  scan: RecordScan;
}

// Records scanned at once when listing runs (each scan reads its tasks in parallel already).
const SCANS_AT_ONCE = 4;
/** How long a scan answers for its record by default: the requests of one page load (a task, its trajectory, its log) share it. */
export const SCAN_REUSE_MS = 2000;

/**
 * The records in the viewer's run directories, read afresh for every page load: a run that is still going
 * shows its newest tasks on the next one.
 */
export class RecordCatalog {
  private readonly recent = new Map<string, { at: number; record: Promise<OpenRecord> }>();

  constructor(
    private readonly dirs: RunDirectories,
    private readonly reuseMs = SCAN_REUSE_MS,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(): Promise<RunList> {
    const locations = await this.dirs.records();
    const limit = pLimit(SCANS_AT_ONCE);
    const opened = await Promise.all(
      locations.map((location) =>
        limit(() =>
          this.read(location).then(
            (record) => ({ record }),
            (error: Error) => ({ error, location }),
          ),
        ),
      ),
    );
    const list: RunList = { runs: [], unreadable: [] };
    for (const entry of opened) {
      if ('record' in entry) list.runs.push(summarize(entry.record));
      else list.unreadable.push({ folder: RecordLayout.of(entry.location.label, entry.location.id).folder, reason: entry.error.message });
    }
    list.runs.sort((a, b) => b.started_at.localeCompare(a.started_at));
    return list;
  }

  async open(key: string): Promise<OpenRecord> {
    const location = (await this.dirs.records()).find((record) => record.key === key);
    if (!location) throw new ViewerError('RECORD_NOT_FOUND', `there is no run record ${JSON.stringify(key)} in the run directories this viewer serves`);
    return this.read(location).catch((error: Error) => {
      throw error instanceof ViewerError ? error : new ViewerError('UNREADABLE', error.message);
    });
  }

  private read(location: RecordLocation): Promise<OpenRecord> {
    const now = this.clock();
    for (const [name, entry] of this.recent) if (now - entry.at >= this.reuseMs) this.recent.delete(name);
    const name = `${location.key} ${location.folder}`;
    const reused = this.recent.get(name);
    if (reused) return reused.record;
    if (this.reuseMs <= 0) return this.scan(location);
    const record = this.scan(location);
    this.recent.set(name, { at: now, record });
    record.catch(() => this.recent.delete(name));
    return record;
  }

  // The scan, less any task whose record is a link out of the run directories.
  private async scan(location: RecordLocation): Promise<OpenRecord> {
    const layout = new RecordLayout(location.folder);
    await this.dirs.resolveFile(location.runDir, layout.assessmentFile);
    const scan = await scanRecord(location.folder);
    const keys = [...scan.done.keys()];
    const outside = await Promise.all(keys.map((resultKey) => this.outsideFile(location, layout, resultKey)));
    keys.forEach((resultKey, index) => {
      const name = outside[index];
      if (name === undefined) return;
      scan.done.delete(resultKey);
      scan.damaged.push({ task: resultKey, reason: `${name} is outside the run directories this viewer serves` });
    });
    return { location, scan };
  }

  // The name of the task's record when the file the scan read it from (the first of its names that is there) lies outside the run directories.
  private async outsideFile(location: RecordLocation, layout: RecordLayout, resultKey: string): Promise<string | undefined> {
    for (const { name, path } of layout.taskRecordFiles(resultKey)) {
      const found = await this.dirs.resolveFile(location.runDir, path).then(
        () => 'inside' as const,
        (error: unknown) => (error instanceof ViewerError && error.code === 'FILE_NOT_FOUND' ? 'absent' : 'outside'),
      );
      if (found === 'inside') return undefined;
      if (found === 'outside') return name;
    }
    return undefined;
  }
}
