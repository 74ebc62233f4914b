// The comparison's command line, and the two records it names: each a record's folder, or a record's id
// found in the log directories (LOG_DIR, default ./logs: run directories, or folders of them, as `npm run view` reads them).
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { RecordError, recordFolders, RecordLayout, scanRecord, type RecordScan } from '@arvo-rca/run-record';

export const COMPARE_USAGE = [
  'usage: npm run compare -- RECORD_A RECORD_B [--logs DIR ...] [--json]',
  '',
  '  RECORD    a run record: its folder (<run dir>/assessments/<record id>), or its id, looked up in the log directories',
  '  --logs    a run directory, or a folder of them, to look ids up in (default: LOG_DIR, else ./logs); may be repeated',
  '  --json    print the comparison as JSON instead of a table',
].join('\n');

export interface CompareOptions {
  records: [string, string];
  logDirs: string[];
  json: boolean;
}

/** A command line the comparison cannot act on; the message says why, then how to call it. */
export class CompareUsageError extends Error {
  override readonly name = 'CompareUsageError';

  constructor(problem: string) {
    super(problem === '' ? COMPARE_USAGE : `${problem}\n${COMPARE_USAGE}`);
  }
}

export function parseCompareOptions(argv: string[], env: NodeJS.ProcessEnv): CompareOptions {
  let parsed: ReturnType<typeof parseFlags>;
  try {
    parsed = parseFlags(argv);
  } catch (error) {
    throw new CompareUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new CompareUsageError('');
  if (positionals.length !== 2) throw new CompareUsageError(`name two run records to compare, not ${positionals.length}`);
  const logDirs = values.logs ?? [env['LOG_DIR'] || 'logs'];
  return { records: [positionals[0], positionals[1]], logDirs, json: values.json ?? false };
}

function parseFlags(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { logs: { type: 'string', multiple: true }, json: { type: 'boolean' }, help: { type: 'boolean' } },
  });
}

/** The record `given` names: a folder holding assessment.json, else the one record of that id in the log directories. */
export async function openRecord(given: string, logDirs: readonly string[]): Promise<RecordScan> {
  if (existsSync(new RecordLayout(given).assessmentFile)) return scanRecord(given);
  const found = (await Promise.all(logDirs.filter((dir) => existsSync(dir)).map((dir) => recordFolders(dir)))).flat();
  const matches = found.filter((record) => record.id === given);
  if (matches.length === 0)
    throw new RecordError('RECORD_MISSING', `${given} is neither a run record's folder nor the id of a record in ${logDirs.join(', ')}`);
  if (matches.length > 1)
    throw new RecordError(
      'RECORD_MISSING',
      `${given} is the id of ${matches.length} records; name one by its folder: ${matches.map((record) => record.folder).join(', ')}`,
    );
  return scanRecord(matches[0].folder);
}
