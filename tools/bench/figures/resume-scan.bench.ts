import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scoreSubmission } from '@arvo-rca/rca-eval';
import { RecordLayout, scanRecord, type TaskEvidence, taskFolderName, tasksToRun } from '@arvo-rca/run-record';
import { BENCH_TRUTH, benchTask, benchTaskIds, writeBenchRecord } from '../rigs/bench-record';
import { elapsedMs, median, round } from '../report/bench-stats';

export interface ResumeScanFigures {
  tasks: number;
  runs: number;
  /** Bytes of all the tasks' result.json together. */
  result_bytes: number;
  /** What a resume does first: `scanRecord` (every result.json read, parsed and checked) and `tasksToRun`. */
  scan_ms: number;
  /** The same files read and JSON-parsed one after another with readFileSync: the floor of reading them at all. */
  read_parse_ms: number;
  /** A readdir of the record's tasks folder. */
  readdir_ms: number;
  scan_vs_read_parse: number;
}

const TASKS = 1000;
const RUNS = 9;
const ANSWER = JSON.stringify({
  locations: [
    { file: 'src/decode.c', function: 'decode_dict', line_start: 150, line_end: 160 },
    { file: 'src/main.c', function: 'main', line_start: 10, line_end: 12 },
  ],
});

/**
 * Resume's scan of a 1,000-task record, written by RecordWriter as a green agent writes it, against the
 * floor of reading and parsing the same result.json files one by one; runs interleaved, medians.
 */
export async function measureResumeScan(): Promise<ResumeScanFigures> {
  const runDir = await mkdtemp(join(tmpdir(), 'arvo-rca-bench-record-'));
  try {
    const { folder, taskIds } = await writeRecord(runDir);
    const files = taskIds.map((taskId) => new RecordLayout(folder).taskFile(taskId));
    const result_bytes = files.reduce((total, file) => total + readFileSync(file).byteLength, 0);
    const scan: number[] = [];
    const readParse: number[] = [];
    const listing: number[] = [];
    // One round untimed: the first reads warm the page cache and the code paths.
    for (let run = -1; run < RUNS; run += 1) {
      const times = [
        await timed(() => scanAndPlan(folder)),
        await timed(async () => readAndParse(files)),
        await timed(async () => void readdirSync(new RecordLayout(folder).tasksFolder)),
      ];
      if (run < 0) continue;
      scan.push(times[0]);
      readParse.push(times[1]);
      listing.push(times[2]);
    }
    return {
      tasks: TASKS,
      runs: RUNS,
      result_bytes,
      scan_ms: round(median(scan), 1),
      read_parse_ms: round(median(readParse), 1),
      readdir_ms: round(median(listing), 2),
      scan_vs_read_parse: round(median(scan) / median(readParse)),
    };
  } finally {
    await rm(runDir, { recursive: true, force: true });
  }
}

async function writeRecord(runDir: string): Promise<{ folder: string; taskIds: string[] }> {
  const taskIds = benchTaskIds(TASKS);
  const metrics = scoreSubmission(ANSWER, BENCH_TRUTH);
  const writer = await writeBenchRecord(runDir, taskIds, 'baseline', (taskId) => benchTask(taskId, metrics, evidenceOf(taskId, runDir)));
  return { folder: writer.folder, taskIds };
}

function evidenceOf(taskId: string, runDir: string): TaskEvidence {
  return {
    crashReport: null,
    fix: null,
    submission: null,
    sources: null,
    trajectory: { path: join(runDir, 'trajectories', `${taskFolderName(taskId)}.traj.json`) },
    log: join(runDir, `${taskFolderName(taskId)}.log`),
  };
}

async function scanAndPlan(folder: string): Promise<void> {
  const scan = await scanRecord(folder);
  if (scan.done.size !== TASKS || tasksToRun(scan, true).length !== 0)
    throw new Error(`the record reads as ${scan.done.size} tasks done, ${scan.damaged.length} damaged`);
}

function readAndParse(files: string[]): void {
  for (const file of files) JSON.parse(readFileSync(file, 'utf8'));
}

async function timed(work: () => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return elapsedMs(started);
}
