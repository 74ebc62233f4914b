import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PassThrough } from 'node:stream';
import { list, Parser, type ReadEntry } from 'tar';
import { DockerEngine, DockerSandboxFactory } from '@arvo-rca/arvo-docker';
import { currentOwner, formatOwnerId, resolveSandboxOptions, type ExecOutcome, type Sandbox } from '@arvo-rca/sandbox';
import { describeWithDocker, sampleImageTag } from '@arvo-rca/arvo-docker/testing';
import { describeWithRealTree, layOutRealTask } from '@arvo-rca/sandbox/testing';
import { ProcessTable } from '@arvo-rca/common';
import { GroundTruthExtractor, type GroundTruth } from '@arvo-rca/rca-eval';
import { ArchiveExtractor } from './archive/archive-extractor';
import { HttpFetcher } from './download/http-fetcher';
import { taskSources } from './task-assets.options';
import { TaskAssetsService, type PreparedTask } from './task-assets.service';
import { TaskFileSystem } from './task-file-system';

/** What a tree holds at one path: a file by its bytes' hash, a link by its target, or a folder. */
type TreeEntry = { kind: 'file'; sha256: string } | { kind: 'link'; target: string } | { kind: 'folder' };

/** Every entry of a task archive, by its path (`src-vul/systemd/...`). */
async function archiveEntries(archive: string): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  await list({
    file: archive,
    onReadEntry: (entry: ReadEntry) => {
      const path = entry.path.replace(/\/$/, '');
      if (entry.type === 'Directory') entries.set(path, { kind: 'folder' });
      if (entry.type === 'SymbolicLink') entries.set(path, { kind: 'link', target: entry.linkpath ?? '' });
      if (entry.type !== 'File') return;
      const hash = createHash('sha256');
      entry.on('data', (chunk: Buffer) => hash.update(chunk));
      entry.on('end', () => entries.set(path, { kind: 'file', sha256: hash.digest('hex') }));
    },
  });
  return entries;
}

/** Every entry under `<workspace>/src-vul`, as archiveEntries() names them; links are read, never followed. */
async function treeEntries(workspace: string): Promise<Map<string, TreeEntry>> {
  const entries = new Map<string, TreeEntry>();
  const walk = async (key: string): Promise<void> => {
    entries.set(key, { kind: 'folder' });
    for (const entry of await readdir(join(workspace, key), { withFileTypes: true })) {
      const child = `${key}/${entry.name}`;
      const path = join(workspace, child);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isSymbolicLink()) entries.set(child, { kind: 'link', target: await readlink(path) });
      else
        entries.set(child, {
          kind: 'file',
          sha256: createHash('sha256')
            .update(await readFile(path))
            .digest('hex'),
        });
    }
  };
  await walk('src-vul');
  return entries;
}

function ofKind(entries: Map<string, TreeEntry>, kind: TreeEntry['kind']): Map<string, TreeEntry> {
  return new Map([...entries].filter(([, entry]) => entry.kind === kind));
}

function output(outcome: ExecOutcome): string {
  if (outcome.kind !== 'ran' || outcome.timedOut !== undefined || outcome.returncode !== 0) throw new Error(`command failed: ${JSON.stringify(outcome)}`);
  return outcome.output;
}

const ID = 'systemd-udev';
const BINARY = 'src-vul/systemd/test/test-bcd/win10.bcd.zst';
const GENERATED = 'src-vul/systemd/man/rules/meson.build';

// systemd 252.39 as upstream released it, and Debian's own fix for CVE-2026-40225 as the task's patch.diff
// (tools/samples/real-task.sh): 4,997 files, 77 symbolic links, 174 binary files, 80 MB. The fix adds an
// #include to four udev callouts and checks strings from the kernel in five functions of theirs.
describeWithRealTree('systemd', 'a task on a real tree: systemd 252.39 without its fix for CVE-2026-40225', () => {
  let root: string;
  let archive: Map<string, TreeEntry>;
  let prepared: PreparedTask;
  let laidOut: Map<string, TreeEntry>;
  let truth: GroundTruth;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'real-tree-'));
    const task = layOutRealTask(join(root, 'samples'), ID);
    archive = await archiveEntries(join(task, 'repo-vul.tar.gz'));
    const sources = taskSources({ ARVO_DATA_URL: 'https://arvo.invalid/', SAMPLES_DIR: join(root, 'samples') });
    const assets = new TaskAssetsService(
      { tmpDir: join(root, 'tmp'), cacheDir: join(root, 'cache'), sources },
      { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() },
    );
    prepared = await assets.prepare(assets.parse(`sample:${ID}`));
    laidOut = await treeEntries(prepared.workspaceDir);
    const extractor = await GroundTruthExtractor.create();
    truth = await extractor.fromPatch(await readFile(prepared.groundTruthPath, 'utf8'), join(prepared.workspaceDir, 'src-vul'));
  }, 300_000);

  afterAll(async () => {
    await prepared?.dispose();
    await rm(root, { recursive: true, force: true });
  });

  describe('TaskAssetsService.prepare', () => {
    it('lays out every file, folder and link of the archive, and nothing more', async () => {
      expect([ofKind(archive, 'file').size, ofKind(archive, 'link').size, ofKind(archive, 'folder').size]).toEqual([4997, 77, 397]);
      expect([...laidOut.keys()].sort()).toEqual([...archive.keys()].sort());
    });

    it('keeps each symbolic link as a link with its own target, a link to its own folder included', async () => {
      const links = ofKind(laidOut, 'link');

      expect(links).toEqual(ofKind(archive, 'link'));
      expect(links.get('src-vul/systemd/test/testdata')).toEqual({ kind: 'link', target: '.' });
      expect(links.get('src-vul/systemd/test/TEST-02-UNITTESTS/Makefile')).toEqual({ kind: 'link', target: '../TEST-01-BASIC/Makefile' });
    });

    it('writes every file byte for byte, binary test inputs and generated files included', async () => {
      const files = ofKind(laidOut, 'file');

      expect((await readFile(join(prepared.workspaceDir, BINARY))).subarray(0, 4)).toEqual(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
      expect(await readFile(join(prepared.workspaceDir, GENERATED), 'utf8')).toContain('# Do not edit. Generated by update-man-rules.py.');
      expect(files).toEqual(ofKind(archive, 'file'));
    });

    it('puts the crash report beside the tree and the fix outside the workspace', async () => {
      expect(prepared.errorReport).toMatch(/^No sanitizer report: this task is systemd 252\.39/);
      expect(relative(prepared.workspaceDir, prepared.groundTruthPath)).toMatch(/^\.\./);
    });
  });

  describe('GroundTruthExtractor.fromPatch', () => {
    it('names the function of each hunk of the Debian fix, and none for the #include lines it adds', () => {
      expect(truth.project).toBe('systemd');
      expect(truth.notes).toEqual([]);
      expect(truth.spans.map((span) => [span.file, span.function])).toEqual([
        ['src/udev/dmi_memory_id/dmi_memory_id.c', ''],
        ['src/udev/dmi_memory_id/dmi_memory_id.c', 'dmi_memory_device_string'],
        ['src/udev/scsi_id/scsi_id.c', ''],
        ['src/udev/scsi_id/scsi_id.c', 'scsi_id'],
        ['src/udev/udev-builtin-net_id.c', ''],
        ['src/udev/udev-builtin-net_id.c', 'dev_pci_onboard'],
        ['src/udev/udev-builtin-net_id.c', 'get_link_info'],
        ['src/udev/v4l_id/v4l_id.c', ''],
        ['src/udev/v4l_id/v4l_id.c', 'main'],
      ]);
    });

    it('keeps every hunk for the root cause: the fix touches no test', () => {
      expect(truth.rootCause?.map((span) => span.function)).toEqual(truth.spans.map((span) => span.function));
    });
  });

  describe('TaskAssetsService.begin with the tree copied into a container on the way', () => {
    let judged: PreparedTask;
    let copied: string[];
    let onHost: Map<string, TreeEntry>;

    beforeAll(async () => {
      const sources = taskSources({ ARVO_DATA_URL: 'https://arvo.invalid/', SAMPLES_DIR: join(root, 'samples') });
      const assets = new TaskAssetsService(
        { tmpDir: join(root, 'tmp'), cacheDir: join(root, 'cache'), sources },
        { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() },
      );
      const tree = new PassThrough();
      copied = [];
      const read = new Promise<void>((resolve) =>
        tree.pipe(new Parser({ onReadEntry: (entry) => (copied.push(entry.path.replace(/\/$/, '')), entry.resume()) })).on('end', resolve),
      );
      judged = await (await assets.begin(assets.parse(`sample:${ID}`), undefined, { tree })).prepared;
      await read;
      onHost = await treeEntries(judged.workspaceDir);
    }, 300_000);

    afterAll(async () => {
      await judged?.dispose();
    });

    it('copies every entry of the archive, and keeps on the host every folder and link but only the files named as those of the fix', () => {
      expect(judged.hostTree.extent).toBe('judged');
      expect(copied.sort()).toEqual([...archive.keys()].sort());
      expect(ofKind(onHost, 'folder')).toEqual(ofKind(archive, 'folder'));
      expect(ofKind(onHost, 'link')).toEqual(ofKind(archive, 'link'));
      expect([...ofKind(onHost, 'file').keys()].sort()).toEqual([
        'src-vul/systemd/src/udev/dmi_memory_id/dmi_memory_id.c',
        'src-vul/systemd/src/udev/scsi_id/scsi_id.c',
        'src-vul/systemd/src/udev/udev-builtin-net_id.c',
        'src-vul/systemd/src/udev/v4l_id/v4l_id.c',
      ]);
    });

    it('gives the judge the same ground truth as the whole tree', async () => {
      const extractor = await GroundTruthExtractor.create();
      expect(await extractor.fromPatch(await readFile(judged.groundTruthPath, 'utf8'), join(judged.workspaceDir, 'src-vul'))).toEqual(truth);
    });

    it('adds the files a submission names, byte for byte, from the archive', async () => {
      await judged.hostTree.addFiles(['/workspace/src-vul/systemd/src/udev/udev-builtin-path_id.c']);

      const added = 'src-vul/systemd/src/udev/udev-builtin-path_id.c';
      expect((await treeEntries(judged.workspaceDir)).get(added)).toEqual(archive.get(added));
    });
  });

  describeWithDocker('the Docker sandbox on the prepared workspace', () => {
    let factory: DockerSandboxFactory;
    let sandbox: Sandbox;

    beforeAll(async () => {
      factory = new DockerSandboxFactory(
        DockerEngine.fromEnvironment(),
        resolveSandboxOptions({ sandbox: 'docker', tmpDir: join(root, 'tmp'), commandTimeoutS: 60 }),
        formatOwnerId(currentOwner(new ProcessTable())),
      );
      // The task's own image (prepared.image) does not exist: sample 1's stands in, which differs only in /src.
      sandbox = factory.create({ task: `sample:${ID}`, contextId: `ctx-${randomUUID()}`, image: sampleImageTag('1'), workspaceDir: prepared.workspaceDir });
      await sandbox.start();
    }, 300_000);

    afterAll(async () => {
      await factory?.stopAll();
    });

    it('lets a command see the whole tree, its links and its bytes', async () => {
      const hash = (archive.get(BINARY) as { sha256: string }).sha256;
      const seen = output(
        await sandbox.exec(
          `cd src-vul/systemd && find . -type f | wc -l && find . -type l | wc -l && readlink test/testdata && sha256sum ${BINARY.slice('src-vul/systemd/'.length)}`,
        ),
      );

      expect(seen).toBe(`4997\n77\n.\n${hash}  test/test-bcd/win10.bcd.zst\n`);
    });

    it('shows the line the fix changes where the ground truth says it is, unfixed', async () => {
      const span = truth.spans.find((each) => each.function === 'main');
      const line = (span?.vulSpan?.start ?? 0) + 3;

      expect(output(await sandbox.exec(`sed -n ${line}p src-vul/systemd/src/udev/v4l_id/v4l_id.c`))).toBe(
        '                printf("ID_V4L_PRODUCT=%s\\n", v2cap.card);\n',
      );
    });
  });
});
