// Where records are: the folders under `assessments/` of a run directory, or of every run directory in a
// folder of them (a LOG_DIR such as `logs/`). The viewer lists them; the comparison finds one by its id.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RecordLayout, recordsFolderOf } from './record-layout';

/** A record's folder as found, not yet read. */
export interface RecordFolder {
  /** The record's id: its folder's name. */
  id: string;
  /** `<run dir>/assessments/<id>`. */
  folder: string;
  runDir: string;
  /** The run directory as the caller named it (or under the folder they named). */
  label: string;
}

// A record id as RecordWriter makes it (`2026-11-23_22-59-01_ab12cd34`); anything else under assessments/ is not a record.
const RECORD_ID = /^[0-9A-Za-z_-]+$/;

/** The record folders in `dir`, a run directory or a folder of them; `label` names `dir` in what is returned. */
export async function recordFolders(dir: string, label = dir): Promise<RecordFolder[]> {
  if (await hasRecords(dir)) return recordsOf(dir, label);
  const children = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    children
      .filter((child) => child.isDirectory())
      .map(async (child) => ((await hasRecords(join(dir, child.name))) ? recordsOf(join(dir, child.name), join(label, child.name)) : [])),
  );
  return nested.flat();
}

async function hasRecords(dir: string): Promise<boolean> {
  return stat(recordsFolderOf(dir)).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

async function recordsOf(runDir: string, label: string): Promise<RecordFolder[]> {
  const entries = await readdir(recordsFolderOf(runDir));
  return entries.filter((name) => RECORD_ID.test(name)).map((id) => ({ id, folder: RecordLayout.of(runDir, id).folder, runDir, label }));
}
