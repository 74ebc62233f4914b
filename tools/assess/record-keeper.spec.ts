import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failedTask } from '@arvo-rca/rca-eval';
import { formatRunRecord, RecordLayout, recordResult, RecordWriter, scanRecord, taskPiece, type RunRecordPiece, type TaskFolder } from '@arvo-rca/run-record';
import { RecordKeeper } from './record-keeper';

const GREEN = 'http://10.0.0.2:9009/';

const finished = (task: string) => ({
  task,
  task_id: task,
  masked_id: null,
  context_id: `ctx-${task}`,
  finish_reason: 'finished',
  metrics: failedTask('no image'),
  run: { seconds: 1, commands: 0, failed_commands: 0, attempts: 1 },
});
const evidence = { crashReport: 'ERROR: AddressSanitizer\n', fix: '-a\n+b\n', submission: null, sources: null, trajectory: null, log: null };

// A piece as the runner's client hands it over: the artifact's data, through JSON.
const wire = (piece: RunRecordPiece): unknown[] => [JSON.parse(JSON.stringify(formatRunRecord(piece)))];

describe("what the runner keeps of a green agent's run record", () => {
  let greenDir: string, runnerDir: string;
  let lines: string[];
  const say = (line: string): void => void lines.push(line);

  beforeEach(async () => {
    [greenDir, runnerDir] = await Promise.all([mkdtemp(join(tmpdir(), 'keeper-green-')), mkdtemp(join(tmpdir(), 'keeper-runner-'))]);
    lines = [];
  });

  afterEach(async () => {
    await Promise.all([greenDir, runnerDir].map((dir) => rm(dir, { recursive: true, force: true })));
  });

  /**
   * A green agent's run of `tasks`, fed to `keeper` as it would stream it, each task's files as `send` makes
   * them (none: a green agent that sends no files); the record's writer and the Result.
   */
  async function run(
    keeper: RecordKeeper,
    tasks: string[],
    send: ((task: TaskFolder, id: string) => RunRecordPiece) | null = (task, id) => taskPiece(id, task),
  ) {
    const take = async (piece: RunRecordPiece): Promise<void> => (send ? keeper.take(wire(piece)) : undefined);
    const writer = await RecordWriter.create(greenDir, {
      tasks,
      concurrency: 1,
      shard: { index: 0, count: 1 },
      assessor: { name: 'green', version: '1' },
      solver: { name: 'purple', version: '1', model: null, url: 'http://10.0.0.2:9019/' },
      settings: {},
      settings_hash: 'h',
    });
    keeper.named(writer.folder);
    await take({ recordId: writer.id, kind: 'assessment', assessment: writer.assessment });
    const done = [];
    for (const task of tasks) {
      const written = await writer.writeTask(finished(task), evidence);
      done.push(written.record);
      if (send) await take(send(written, writer.id));
    }
    await writer.endSession();
    await take({ recordId: writer.id, kind: 'assessment', assessment: writer.assessment });
    const result = recordResult(writer.assessment, new Map(done.map((record) => [record.task, record])));
    return { writer, result, remoteFile: await writer.writeResult(result) };
  }

  it('keeps the record in its own run directory under the same id as the files come, says so, and writes the Result there', async () => {
    const keeper = new RecordKeeper(runnerDir, GREEN, true, say);

    const { writer, result, remoteFile } = await run(keeper, ['sample:1', 'sample:2']);
    const file = await keeper.keepResult(result, remoteFile);

    const local = join(runnerDir, 'assessments', writer.id);
    expect(lines).toEqual([`record:  ${local} (kept here as the green agent at ${GREEN} writes it in ${writer.folder})`]);
    expect(keeper.folder).toBe(local);
    expect(file).toBe(join(local, 'result.json'));
    expect(await readFile(file ?? '', 'utf8')).toBe(await readFile(remoteFile, 'utf8'));
    const scan = await scanRecord(local);
    expect([[...scan.done.keys()], scan.missing, scan.assessment]).toEqual([['sample:1', 'sample:2'], [], writer.assessment]);
  });

  it("writes nothing where the green agent writes its record into the runner's run directory, and names that folder", async () => {
    const keeper = new RecordKeeper(greenDir, GREEN, true, say);

    const { writer, result, remoteFile } = await run(keeper, ['sample:1']);
    const before = await stat(new RecordLayout(writer.folder).taskFile('sample:1'));
    const file = await keeper.keepResult(result, remoteFile);

    expect(lines).toEqual([`record:  ${writer.folder}`]);
    expect(file).toBe(remoteFile);
    expect((await stat(new RecordLayout(writer.folder).taskFile('sample:1'))).ino).toBe(before.ino);
    expect(await readdir(runnerDir)).toEqual([]);
  });

  it("says that the record stays on the green agent's side when the green agent sends no files (an older one), and gives the Result's file there", async () => {
    const keeper = new RecordKeeper(runnerDir, GREEN, false, say);

    const { writer, result, remoteFile } = await run(keeper, ['sample:1'], null);

    expect(lines[0]).toBe(`record:  ${writer.folder}, on the green agent's side: it sends no record files, so the record stays there`);
    expect(keeper.folder).toBe(writer.folder);
    expect(await keeper.keepResult(result, remoteFile)).toBe(remoteFile);
    expect(await readdir(runnerDir)).toEqual([]);
  });

  it('names a file the green agent left out over its bound, and where it stays; the task is kept without it', async () => {
    const keeper = new RecordKeeper(runnerDir, GREEN, true, say);

    const { writer } = await run(keeper, ['sample:1'], (task, id) => taskPiece(id, task, evidence.crashReport.length));

    expect(lines[1]).toMatch(
      new RegExp(`^record: {2}sample:1: fix\\.diff \\(6 characters\\) is over the [0-9,]+ a task sends; it stays in ${writer.folder}/tasks/sample_1$`),
    );
    const kept = join(runnerDir, 'assessments', writer.id, 'tasks', 'sample_1');
    expect((await readdir(kept)).sort()).toEqual(['crash.txt', 'task.json']);
  });

  it("says once that the record stays on the green agent's side when it cannot be begun here, and gives the Result's file there", async () => {
    const notADirectory = join(runnerDir, 'a-file');
    await writeFile(notADirectory, '');
    const keeper = new RecordKeeper(notADirectory, GREEN, true, say);

    const { writer, result, remoteFile } = await run(keeper, ['sample:1', 'sample:2']);

    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^record: {2}a file the green agent at \\S+ sent was not kept here: .*ENOTDIR.*; the record stays on the green agent's side in ${writer.folder}$`,
        ),
      ),
    ]);
    expect(keeper.folder).toBe(writer.folder);
    expect(await keeper.keepResult(result, remoteFile)).toBe(remoteFile);
  });

  it('names a piece it cannot keep, and keeps the rest', async () => {
    const keeper = new RecordKeeper(runnerDir, GREEN, true, say);

    await keeper.take([{ run_record: { record_id: 'r1', kind: 'note' } }]);
    await run(keeper, ['sample:1']);

    expect(lines[0]).toBe(`record:  a file the green agent at ${GREEN} sent was not kept here: record r1: kind "note" is neither "assessment" nor "task"`);
    expect(lines[1]).toMatch(/^record: {2}\S+ \(kept here as/);
  });
});
