import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { A2aClientFactory, parseAssessmentSaved, type PeerEvent } from '@arvo-rca/a2a-protocol';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import type { AssessmentResult, TaskRecord } from '@arvo-rca/results';
import { RecordLayout, type SourcesFile } from '@arvo-rca/run-record';
import { greenStage } from '../stage/green-stage.testing';
import { callingBack, type SolverStandIn } from '../stage/solver-stand-in.testing';

// A real tree: Debian's libarchive 3.6.2 source with one of its own fixes (CVE-2024-26256) taken out
// again, laid out as a task by tools/samples/real-task.sh. CI fetches it (`apt-get source`); elsewhere the
// suite runs when it was fetched before (tools/bench/real-tree.sh), and says so when not.
const REPO = join(__dirname, '../../../../..');
const TREES = join(process.env['CACHE'] ?? join(homedir(), '.cache', 'arvo-rca', 'trees'), 'libarchive');
const fetched = existsSync(TREES) && readdirSync(TREES).some((name) => name.startsWith('libarchive-'));
if (!fetched && process.env['CI'] === 'true') throw new Error(`CI must provide the libarchive source tree in ${TREES} (tools/bench/real-tree.sh)`);
if (!fetched) console.warn(`real tree: no libarchive source in ${TREES}; run tools/bench/real-tree.sh to fetch it. The real-tree suite is skipped.`);
const describeWithTree = fetched ? describeWithDocker : describe.skip;

const RAR = 'libarchive/archive_read_support_format_rar.c';
const READ = 'libarchive/archive_read.c';

describeWithTree('green agent, a task on a real project tree', () => {
  const docker = new Docker();
  const clients = new A2aClientFactory();
  const stage = greenStage('real-tree');
  const id = 'libarchive-e8';
  let tmpDir: string, greenUrl: string, solver: SolverStandIn;
  let files: number;
  let vulnerableLine: number;
  let readNewLine: number;
  let events: PeerEvent[];

  beforeAll(async () => {
    tmpDir = stage.scratch();
    const task = execFileSync('bash', [join(REPO, 'tools/samples/real-task.sh'), join(tmpDir, 'samples'), id], { encoding: 'utf8' }).trim();
    const listing = execFileSync('tar', ['-tvzf', join(task, 'repo-vul.tar.gz')], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    files = listing.split('\n').filter((line) => line.startsWith('-')).length;
    vulnerableLine = Number(/^@@ -(\d+)/m.exec(readFileSync(join(task, 'patch.diff'), 'utf8'))?.[1]) + 3;
    await docker.getImage(sampleImageTag('1')).tag({ repo: 'arvo-rca-sample', tag: `${id}-vul` });
    // A second guess, in a file the fix does not touch: the host gets that file from the archive for its excerpt.
    const readSource = execFileSync('tar', ['-xzOf', join(task, 'repo-vul.tar.gz'), `src-vul/libarchive/${READ}`], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    readNewLine = readSource.split('\n').indexOf('archive_read_new(void)') + 1;
    const answer = JSON.stringify({
      reasoning: 'a filter of length 4 reads past its window',
      locations: [
        { file: RAR, function: 'execute_filter_e8', line_start: vulnerableLine - 3, line_end: vulnerableLine + 3 },
        { file: READ, function: 'archive_read_new', line_start: readNewLine, line_end: readNewLine + 1 },
      ],
    });
    ({ greenUrl, solver } = await stage.start(
      callingBack([
        'find /workspace/src-vul/libarchive -type f | wc -l',
        `grep -n 'length < 4)' /workspace/src-vul/libarchive/${RAR}`,
        'test -e /workspace/src-vul/libarchive/debian; echo debian=$?',
        `cat > /workspace/shared/loc.json <<'EOF'\n${answer}\nEOF`,
      ]),
      { SAMPLES_DIR: join(tmpDir, 'samples'), MASK_TASK_IDS: 'off' },
    ));
    const request = JSON.stringify({ participants: { purple_agent: solver.agent.url }, config: { task_ids: [`sample:${id}`] } });
    events = [];
    for await (const event of clients.peer(greenUrl).streamText(randomUUID(), request, { deadlineMs: 300_000 })) events.push(event);
  }, 360_000);

  afterAll(() =>
    docker
      .getImage(sampleImageTag(id))
      .remove({ noprune: true })
      .catch(() => undefined),
  );

  it('lays out the whole tree in the sandbox, without its packaging, the fix taken out', () => {
    const [run] = solver.runs;
    expect(run.answers[0]).toContain(`<output>\n${files}\n`);
    expect(run.answers[1]).toContain(`${vulnerableLine}:  if (length > PROGRAM_WORK_SIZE || length < 4)`);
    expect(run.answers[2]).toContain('debian=1');
  });

  it('copies the tree into its container while the host extracts it, not after', () => {
    const started = /started in \d+ ms: .*source tree (\d+) as the host extracted it \(waited (\d+) for the host\)/.exec(JSON.stringify(events));
    expect(started).not.toBeNull();
    expect(Number(started?.[1])).toBeGreaterThan(0);
  });

  it("finds the fix's function in the real file, and scores an answer that names it", () => {
    const result = (events.find((event) => event.kind === 'artifact') as { data: AssessmentResult[] }).data[0];
    expect(result.task_metrics[`sample:${id}`]).toMatchObject({ status: 'scored', n_gt: 1, file_acc: 1, func_recall: 1, line_iou: 1, rc_func_recall: 1 });
  });

  it("keeps the fix's line, marked, in the record's source excerpt", () => {
    const recordDir = parseAssessmentSaved((events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
    const task = JSON.parse(readFileSync(new RecordLayout(recordDir).taskFile(`sample:${id}`), 'utf8')) as TaskRecord;
    const [excerpt] = (JSON.parse(readFileSync(join(recordDir, '..', '..', task.files.sources ?? ''), 'utf8')) as SourcesFile).files;
    expect(excerpt.path).toBe(RAR);
    const marked = excerpt.fix.flatMap((span) => excerpt.lines.slice(span.start - excerpt.start, span.end - excerpt.start + 1));
    expect(marked).toContain('  if (length > PROGRAM_WORK_SIZE || length < 4)');
  });

  it("keeps on this host only the fix's files of the tree, and shows the excerpt of a guessed file the fix does not touch", () => {
    expect(JSON.stringify(events)).toContain('(on this host, only the files the judge reads: the container has the whole tree)');
    const recordDir = parseAssessmentSaved((events.at(-1) as { data: unknown[] }).data)?.recordDir ?? '';
    const task = JSON.parse(readFileSync(new RecordLayout(recordDir).taskFile(`sample:${id}`), 'utf8')) as TaskRecord;
    const excerpt = (JSON.parse(readFileSync(join(recordDir, '..', '..', task.files.sources ?? ''), 'utf8')) as SourcesFile).files.find(
      (file) => file.path === READ,
    );
    expect(readNewLine).toBeGreaterThan(0);
    expect(excerpt?.predicted.map((span) => excerpt.lines.slice(span.start - excerpt.start, span.end - excerpt.start + 1))).toEqual([
      ['archive_read_new(void)', '{'],
    ]);
  });
});
