import { join } from 'node:path';
import pLimit from 'p-limit';
import { scanRecord, taskFolderName, type RecordScan } from '@arvo-rca/run-record';
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

/**
 * The records in the viewer's run directories, read afresh on every request: a run that is still going
 * shows its newest tasks on the next load.
 */
export class RecordCatalog {
  constructor(private readonly dirs: RunDirectories) {}

  async list(): Promise<RunList> {
    const locations = await this.dirs.records();
    const limit = pLimit(SCANS_AT_ONCE);
    const opened = await Promise.all(locations.map((location) => limit(() => this.read(location).then((record) => ({ record }), (error: Error) => ({ error, location })))));
    const list: RunList = { runs: [], unreadable: [] };
    for (const entry of opened) {
      if ('record' in entry) list.runs.push(summarize(entry.record));
      else list.unreadable.push({ folder: entry.location.label, reason: entry.error.message });
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

  // The scan, less any task whose result.json is a link out of the run directories.
  private async read(location: RecordLocation): Promise<OpenRecord> {
    await this.dirs.resolveFile(location.runDir, join(location.folder, 'assessment.json'));
    const scan = await scanRecord(location.folder);
    const outside = await Promise.all(
      [...scan.done.keys()].map(async (key) => {
        const path = join(location.folder, 'tasks', taskFolderName(key), 'result.json');
        return this.dirs.resolveFile(location.runDir, path).then(
          () => undefined,
          () => key,
        );
      }),
    );
    for (const key of outside) {
      if (key === undefined) continue;
      scan.done.delete(key);
      scan.damaged.push({ task: key, reason: 'result.json is outside the run directories this viewer serves' });
    }
    return { location, scan };
  }
}
