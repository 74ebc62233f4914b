import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RecordError, RecordLayout } from '@arvo-rca/run-record';

/**
 * The folder of record `id`: in this run directory, or in another run directory beside it (the same
 * LOG_DIR: a green agent restarted after a crash has a run directory of its own).
 */
export async function findRecord(runDir: string, id: string): Promise<string> {
  const siblings = await readdir(dirname(runDir)).catch(() => [] as string[]);
  const candidates = [runDir, ...siblings.map((name) => join(dirname(runDir), name)).filter((dir) => dir !== runDir)];
  for (const dir of candidates) {
    const layout = RecordLayout.of(dir, id);
    if (
      await stat(layout.assessmentFile).then(
        () => true,
        () => false,
      )
    )
      return layout.folder;
  }
  throw new RecordError('RECORD_MISSING', `no run record ${id} in ${runDir} or beside it (${RecordLayout.of(join(dirname(runDir), '*'), id).folder})`);
}
