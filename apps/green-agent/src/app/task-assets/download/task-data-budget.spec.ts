import { randomBytes } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatBytes } from '@arvo-rca/common';
import { ImageLedger } from '@arvo-rca/arvo-docker';
import { ArchiveExtractor } from '../archive/archive-extractor';
import { HttpFetcher } from './http-fetcher';
import { NeededTaskData } from './needed-task-data';
import { tarGz } from '../archive/tar-fixture.testing';
import { TaskAssetsService, type PreparedTask } from '../task-assets.service';
import { TaskDataLedger } from './task-data-ledger';
import { TaskFileSystem } from '../task-file-system';
import { TaskFileServer } from './task-file-server.testing';
import { TASK_FILE_NAMES, TaskSource, type TaskSourceConfig } from '../task-source';

const MIB = 1024 ** 2;
// Each task's archive holds this much random data, which gzip does not shrink: its download is about as large.
const PAYLOAD_MIB: Record<string, number> = { 1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 9: 5 };
const LEDGER = 'task-data-downloaded.json';

/** The files of task `id`, as the data set serves them: a crash report, an archive of random data, a fix. */
function taskFiles(id: string): [string, Buffer][] {
  const archive = tarGz([{ type: 'File', path: `src-vul/p${id}/data.bin`, content: randomBytes(PAYLOAD_MIB[id] * MIB) }]);
  return [
    [`${id}/error.txt`, Buffer.from(`ERROR: AddressSanitizer: heap-buffer-overflow in task ${id}\n`)],
    [`${id}/repo-vul.tar.gz`, archive],
    [`${id}/patch.diff`, Buffer.from(`--- a/p${id}/data.bin\n+++ b/p${id}/data.bin\n`)],
  ];
}

const FILES = new Map(Object.keys(PAYLOAD_MIB).flatMap(taskFiles));

/** What task `id` downloads in all. */
function taskBytes(id: string): number {
  return TASK_FILE_NAMES.reduce((sum, name) => sum + (FILES.get(`${id}/${name}`)?.length ?? 0), 0);
}

/** The cache as the disk holds it: every block of it (as `du` counts), and the bytes of the task files in it. */
interface Usage {
  onDisk: number;
  taskFileBytes: number;
}

async function usageOf(path: string): Promise<Usage> {
  // Files come and go while it is measured: one gone meanwhile counts nothing.
  const info = await lstat(path).catch(() => undefined);
  if (!info) return { onDisk: 0, taskFileBytes: 0 };
  const total = { onDisk: info.blocks * 512, taskFileBytes: info.isFile() && !basename(path).includes(LEDGER) ? info.size : 0 };
  if (!info.isDirectory()) return total;
  for (const name of await readdir(path).catch(() => [])) {
    const inner = await usageOf(join(path, name));
    total.onDisk += inner.onDisk;
    total.taskFileBytes += inner.taskFileBytes;
  }
  return total;
}

interface UsageWatch {
  stop(): Promise<Usage>;
}

/** Measures the cache over and over until stopped, and keeps the peaks. */
function watchUsage(dir: string): UsageWatch {
  const peak: Usage = { onDisk: 0, taskFileBytes: 0 };
  let watching = true;
  const loop = (async () => {
    while (watching) {
      const now = await usageOf(dir);
      peak.onDisk = Math.max(peak.onDisk, now.onDisk);
      peak.taskFileBytes = Math.max(peak.taskFileBytes, now.taskFileBytes);
      await sleep(1);
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await loop;
      return peak;
    },
  };
}

describe('the task data disk budget, over real downloads', () => {
  let root: string;
  let cacheDir: string;
  let server: TaskFileServer;
  let arvo: TaskSourceConfig;
  let originDir: string;
  let lines: string[];
  const log = (line: string): void => void lines.push(line);
  const prepared: PreparedTask[] = [];
  const watches: UsageWatch[] = [];

  function watch(): UsageWatch {
    const watching = watchUsage(cacheDir);
    watches.push(watching);
    return watching;
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'task-data-budget-'));
    cacheDir = join(root, 'cache');
    server = await TaskFileServer.start(FILES);
    // Archives come in chunks with pauses, so that downloads overlap and the cache is measured mid-download.
    for (const id of Object.keys(PAYLOAD_MIB)) server.trickle(`${id}/repo-vul.tar.gz`, 256 * 1024, 5);
    arvo = { name: 'arvo', base: server.baseUrl, imageTemplate: 'n132/arvo:{id}-vul' };
    originDir = join(cacheDir, new TaskSource(arvo).originKey);
    lines = [];
  });

  afterEach(async () => {
    // A test that failed midway leaves its measuring loop running, which would keep the process alive.
    await Promise.all(watches.splice(0).map((watching) => watching.stop()));
    await Promise.all(prepared.splice(0).map((task) => task.dispose()));
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  function service(budgetBytes: number, needed?: NeededTaskData, sources = [arvo]): TaskAssetsService {
    const options = { tmpDir: join(root, 'tmp'), cacheDir, sources, defaultSource: 'arvo', taskDataBudgetBytes: budgetBytes };
    return new TaskAssetsService(options, { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() }, needed);
  }

  /** Prepares the task and keeps it until disposed: its data is needed meanwhile. */
  async function prepare(assets: TaskAssetsService, task: string): Promise<PreparedTask> {
    const ready = await assets.prepare(assets.parse(task), log);
    prepared.push(ready);
    return ready;
  }

  /** Prepares the task, and ends it at once, as a task that ran. */
  async function run(assets: TaskAssetsService, task: string): Promise<void> {
    await (await prepare(assets, task)).dispose();
  }

  /** The ids whose task folders are in the cache. */
  async function cached(): Promise<string[]> {
    return (await readdir(originDir).catch(() => [])).sort();
  }

  const downloads = (id: string): number => server.requestsFor(`${id}/repo-vul.tar.gz`);
  const removed = (id: string): RegExp =>
    new RegExp(`^task data budget: removed the data of arvo:${id} \\(\\d+\\.\\d MiB\\), downloaded here and used least recently$`);

  it('keeps the task data it downloaded within the budget, removing the least recently used first', async () => {
    const budget = 5 * MIB;
    const assets = service(budget);
    const measuring = watch();

    await run(assets, 'arvo:1');
    await run(assets, 'arvo:2');
    expect(await cached()).toEqual(['1', '2']);
    await run(assets, 'arvo:1'); // from the cache, used again: 2 is now the least recently used
    await run(assets, 'arvo:3');
    expect(await cached()).toEqual(['1', '3']);
    await run(assets, 'arvo:4');
    const peak = await measuring.stop();

    expect(await cached()).toEqual(['3', '4']);
    expect([1, 2, 3, 4].map((id) => downloads(String(id)))).toEqual([1, 1, 1, 1]);
    expect(lines.filter((line) => line.startsWith('task data budget: removed'))).toEqual([
      expect.stringMatching(removed('2')),
      expect.stringMatching(removed('1')),
    ]);
    const largest = Math.max(...Object.keys(PAYLOAD_MIB).map(taskBytes));
    console.log(`budget ${budget} bytes: peak ${peak.taskFileBytes} bytes of task files, ${peak.onDisk} bytes on disk (bound ${budget + largest})`);
    expect(peak.taskFileBytes).toBeLessThanOrEqual(budget);
    expect(peak.onDisk).toBeLessThanOrEqual(budget + largest);
  });

  it('sets room aside for each download under way, so that two at once do not both count the same room', async () => {
    const budget = 5 * MIB;
    const assets = service(budget);
    await run(assets, 'arvo:1');
    await run(assets, 'arvo:2');
    const measuring = watch();

    await Promise.all([run(assets, 'arvo:3'), run(assets, 'arvo:4')]);
    const peak = await measuring.stop();

    expect(await cached()).toEqual(['3', '4']);
    console.log(`two downloads at once, budget ${budget} bytes: peak ${peak.taskFileBytes} bytes of task files, ${peak.onDisk} bytes on disk`);
    expect(peak.taskFileBytes).toBeLessThanOrEqual(budget);
  });

  it('never removes the data of a task being prepared or run, nor of a remaining task of a running assessment', async () => {
    const needed = new NeededTaskData();
    const assets = service(3 * MIB, needed);
    await run(assets, 'arvo:1');
    const assessment = needed.hold(['arvo:1']);
    const running = await prepare(assets, 'arvo:2');

    await run(assets, 'arvo:3');
    expect(await cached()).toEqual(['1', '2', '3']);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^task data budget: the task data downloaded here takes .* of 3\.0 MiB, and none of the rest may go .*; downloading repo-vul.tar.gz of arvo:3 anyway$/,
      ),
    );
    // The judge reads the fix and the archive at the task's end.
    expect(await readFile(running.groundTruthPath, 'utf8')).toContain('+++ b/p2/data.bin');

    await running.dispose();
    assessment.release('arvo:1');
    await run(assets, 'arvo:4');
    expect(await cached()).toEqual(['4']);
  });

  it('never touches what it did not write: files put beside its own, task data from before, the images record, a local source', async () => {
    const id5 = new Map(taskFiles('5'));
    const theirs = new Map<string, Buffer>([
      [join(cacheDir, 'notes.txt'), Buffer.from('kept by hand\n')],
      ...[...id5].map(([name, bytes]): [string, Buffer] => [join(originDir, name), bytes]),
      [join(root, 'mirror', '7', 'error.txt'), FILES.get('1/error.txt') as Buffer],
      [join(root, 'mirror', '7', 'repo-vul.tar.gz'), FILES.get('1/repo-vul.tar.gz') as Buffer],
      [join(root, 'mirror', '7', 'patch.diff'), FILES.get('1/patch.diff') as Buffer],
    ]);
    for (const [path, bytes] of theirs) {
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, bytes);
    }
    await new ImageLedger(cacheDir).record('n132/arvo:1-vul', 3 * 1024 ** 3);
    const images = await readFile(join(cacheDir, 'images-pulled.json'));
    const assets = service(3 * MIB, undefined, [arvo, { name: 'sample', base: join(root, 'mirror'), imageTemplate: 'arvo-rca-sample:{id}-vul' }]);

    await run(assets, 'arvo:1');
    const beside = join(originDir, '1', 'notes-of-mine.txt');
    await writeFile(beside, 'mine\n');
    theirs.set(beside, Buffer.from('mine\n'));
    await run(assets, 'arvo:5');
    await run(assets, 'sample:7');
    await run(assets, 'arvo:2');
    await run(assets, 'arvo:3');

    expect(downloads('5')).toBe(0);
    expect(lines.filter((line) => line.startsWith('task data budget: removed'))).toEqual([
      expect.stringMatching(removed('1')),
      expect.stringMatching(removed('2')),
    ]);
    for (const [path, bytes] of theirs) expect({ path, same: (await readFile(path)).equals(bytes) }).toEqual({ path, same: true });
    expect(await readdir(join(originDir, '1'))).toEqual(['notes-of-mine.txt']);
    expect(await cached()).toEqual(['1', '3', '5']);
    expect(await readFile(join(cacheDir, 'images-pulled.json'))).toEqual(images);
    expect((await new TaskDataLedger(cacheDir).list()).map((entry) => entry.task)).toEqual(['arvo:3']);
  });

  it('remembers across a restart what it downloaded and when a task last used it', async () => {
    const before = service(5 * MIB);
    await run(before, 'arvo:1');
    await run(before, 'arvo:2');
    await run(before, 'arvo:1');

    const after = service(5 * MIB);
    await run(after, 'arvo:3');

    expect(await cached()).toEqual(['1', '3']);
    expect(lines.filter((line) => line.startsWith('task data budget: removed'))).toEqual([expect.stringMatching(removed('2'))]);
    const { tasks } = JSON.parse(await readFile(join(cacheDir, LEDGER), 'utf8')) as { tasks: { task: string; files: Record<string, number> }[] };
    expect(tasks.map((entry) => entry.task)).toEqual(['arvo:1', 'arvo:3']);
    expect(tasks[1].files).toEqual(Object.fromEntries(TASK_FILE_NAMES.map((name) => [name, FILES.get(`3/${name}`)?.length])));
  });

  it('runs a task whose data alone passes the budget, and says so', async () => {
    const budget = 4 * MIB;
    const assets = service(budget);
    await run(assets, 'arvo:1');
    const measuring = watch();

    const task = await prepare(assets, 'arvo:9');
    const peak = await measuring.stop();

    expect((await lstat(join(task.workspaceDir, 'src-vul', 'p9', 'data.bin'))).size).toBe(5 * MIB);
    expect(lines).toContainEqual(`task data budget: arvo:9 alone takes ${formatBytes(taskBytes('9'))}, more than the budget of 4.0 MiB; its task runs anyway`);
    expect(lines.filter((line) => line.includes('none of the rest may go'))).toEqual([]);
    expect(await cached()).toEqual(['9']);
    expect(peak.onDisk).toBeLessThanOrEqual(budget + taskBytes('9'));
  });
});
