import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RecordError, RECORDS_FOLDER } from '@arvo-rca/run-record';

/**
 * The folder of record `id`: in this run directory, or in another run directory beside it (the same
 * LOG_DIR: a green agent restarted after a crash has a run directory of its own).
 */
export async function findRecord(runDir: string, id: string): Promise<string> {
  const siblings = await readdir(dirname(runDir)).catch(() => [] as string[]);
  const candidates = [runDir, ...siblings.map((name) => join(dirname(runDir), name)).filter((dir) => dir !== runDir)];
  for (const dir of candidates) {
    const folder = join(dir, RECORDS_FOLDER, id);
    if (
      await stat(join(folder, 'assessment.json')).then(
        () => true,
        () => false,
      )
    )
      return folder;
  }
  throw new RecordError('RECORD_MISSING', `no run record ${id} in ${runDir} or beside it (${dirname(runDir)}/*/${RECORDS_FOLDER}/${id})`);
}
