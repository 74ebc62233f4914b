import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { currentOwner, formatOwnerId, parseOwnerId, TASK_OWNER_FILE, taskFolderOwner } from '@arvo-rca/sandbox';
import { ProcessTable } from '@arvo-rca/common';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ArchiveExtractor } from './archive/archive-extractor';
import { HttpFetcher } from './download/http-fetcher';
import { tarGz } from './archive/tar-fixture.testing';
import type { TaskAssetsOptions } from './task-assets.options';
import { TaskAssetsService, type PreparedTask } from './task-assets.service';
import { TaskFileSystem } from './task-file-system';
import { TaskFileServer } from './download/task-file-server.testing';
import type { TaskSourceConfig } from './task-source';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', 'samples');
const FAST = { firstRetryDelayMs: 5, maxRetryDelayMs: 20, idleTimeoutMs: 2000 };

/** The files of sample `n` under the names the data set uses. */
async function sampleFiles(n: string): Promise<Map<string, Buffer>> {
  const names = ['error.txt', 'repo-vul.tar.gz', 'patch.diff'];
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(SAMPLES_DIR, n, name))] as const)));
}

/** Every file and folder under `root`, relative to it. */
async function listTree(root: string): Promise<string[]> {
  return (await readdir(root, { recursive: true })).map((entry) => relative(root, join(root, entry))).sort();
}

async function listOrNothing(dir: string): Promise<string[]> {
  return listTree(dir).catch(() => []);
}

describe('TaskAssetsService', () => {
  let root: string;
  let tmpDir: string;
  let cacheDir: string;
  let lines: string[];
  const log = (line: string): void => void lines.push(line);
  const prepared: PreparedTask[] = [];

  function service(sources: TaskSourceConfig[]): TaskAssetsService {
    const options: TaskAssetsOptions = { tmpDir, cacheDir, sources, defaultSource: 'arvo', download: FAST };
    return new TaskAssetsService(options, { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() });
  }

  async function prepare(assets: TaskAssetsService, task: string): Promise<PreparedTask> {
    const ready = await assets.prepare(assets.parse(task), log);
    prepared.push(ready);
    return ready;
  }

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'task-assets-'));
    tmpDir = join(root, 'tmp');
    cacheDir = join(root, 'cache');
    lines = [];
  });

  afterEach(async () => {
    await Promise.all(prepared.splice(0).map((task) => task.dispose()));
    await rm(root, { recursive: true, force: true });
  });

  describe('with the bundled samples', () => {
    const samples = (): TaskAssetsService => service([{ name: 'sample', base: SAMPLES_DIR, imageTemplate: 'arvo-rca-sample:{id}-vul' }]);

    it('prepares sample:1 for real: the source tree, the crash report, an empty shared/ and no ground truth', async () => {
      const task = await prepare(samples(), 'sample:1');

      expect(relative(tmpDir, task.workspaceDir)).toMatch(/^sample_1-[0-9a-f-]{36}\/workspace$/);
      expect(task.taskRoot).toBe(join(task.workspaceDir, '..'));
      expect((await stat(join(task.workspaceDir, 'src-vul', 'tlvkit'))).isDirectory()).toBe(true);
      expect(await readFile(join(task.workspaceDir, '1_error.txt'), 'utf8')).toBe(await readFile(join(SAMPLES_DIR, '1', 'error.txt'), 'utf8'));
      expect(task.errorReport).toContain('ERROR: AddressSanitizer: heap-buffer-overflow');
      expect(task.errorReportPath).toBe(join(task.workspaceDir, '1_error.txt'));
      expect(await readdir(join(task.workspaceDir, 'shared'))).toEqual([]);
      expect(task.image).toBe('arvo-rca-sample:1-vul');
      expect(lines[0]).toBe(`preparing sample:1 from ${SAMPLES_DIR}`);
    });

    it('names the owner of the task folder beside the workspace, where the agent cannot write it', async () => {
      const owner = formatOwnerId(currentOwner(new ProcessTable()));
      const assets = new TaskAssetsService(
        { tmpDir, cacheDir, sources: [{ name: 'sample', base: SAMPLES_DIR, imageTemplate: 'arvo-rca-sample:{id}-vul' }], owner },
        { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() },
      );
      const task = await prepare(assets, 'sample:1');

      expect((await readdir(task.taskRoot)).sort()).toEqual([TASK_OWNER_FILE, 'workspace']);
      expect(await taskFolderOwner(task.taskRoot)).toEqual(parseOwnerId(owner));
    });

    it('makes the task folder private to this user (0700), so that no other host user reaches its files', async () => {
      const task = await prepare(samples(), 'sample:1');

      expect(((await stat(task.taskRoot)).mode & 0o777).toString(8)).toBe('700');
    });

    it('keeps the ground truth out of the workspace: no patch.diff, under any name', async () => {
      const task = await prepare(samples(), 'sample:1');
      const patch = await readFile(join(SAMPLES_DIR, '1', 'patch.diff'));
      const tree = await listTree(task.workspaceDir);

      expect(task.groundTruthPath).toBe(join(SAMPLES_DIR, '1', 'patch.diff'));
      expect(tree.filter((path) => path.endsWith('patch.diff'))).toEqual([]);
      for (const path of tree) {
        const info = await stat(join(task.workspaceDir, path));
        if (info.isFile()) expect((await readFile(join(task.workspaceDir, path))).equals(patch)).toBe(false);
      }
    });

    it.each(['1', '2', '3', '4', '5'])('lays out sample:%s with its project under src-vul/', async (n) => {
      const { project } = JSON.parse(await readFile(join(SAMPLES_DIR, n, 'sample.json'), 'utf8'));
      const task = await prepare(samples(), `sample:${n}`);

      expect(await readdir(join(task.workspaceDir, 'src-vul'))).toEqual([project]);
      expect((await readdir(task.workspaceDir)).sort()).toEqual([`${n}_error.txt`, 'shared', 'src-vul']);
    });

    it('gives every task its own workspace, and dispose() removes it (twice is fine)', async () => {
      const assets = samples();
      const [first, second] = await Promise.all([prepare(assets, 'sample:1'), prepare(assets, 'sample:1')]);

      expect(first.taskRoot).not.toBe(second.taskRoot);
      await first.dispose();
      await first.dispose();
      await expect(stat(first.taskRoot)).rejects.toThrow(/ENOENT/);
      expect((await stat(join(second.workspaceDir, 'src-vul', 'tlvkit'))).isDirectory()).toBe(true);
    });

    it('takes only a reference parse() made: a forged one does not compile, and parse() refuses its id', () => {
      const forged = { source: 'sample', id: '../1', taskId: 'sample:1' };
      // @ts-expect-error: a TaskRef comes from parse() alone; the spec's typecheck fails if this compiles.
      const neverRun = (): Promise<PreparedTask> => samples().prepare(forged, log);

      expect(() => samples().parse(`${forged.source}:${forged.id}`)).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID' }));
      void neverRun;
    });

    it('reports a missing sample as task not found, and leaves no workspace', async () => {
      await expect(prepare(samples(), 'sample:99')).rejects.toThrow(
        expect.objectContaining({ code: 'TASK_NOT_FOUND', message: expect.stringMatching(/^sample:99: task not found: no error.txt at \//) }),
      );
      expect(await listOrNothing(tmpDir)).toEqual([]);
    });
  });

  describe('with a local mirror of the data set', () => {
    let mirror: string;

    beforeEach(async () => {
      mirror = join(root, 'mirror', 'arvo');
      await mkdir(join(mirror, '42'), { recursive: true });
      for (const [name, bytes] of await sampleFiles('2')) await writeFile(join(mirror, '42', name), bytes);
    });

    it.each([
      ['a directory', () => mirror],
      ['a file:// URL', () => pathToFileURL(mirror).href],
    ])('prepares arvo tasks from %s, reading files in place', async (_name, base) => {
      const task = await prepare(service([{ name: 'arvo', base: base(), imageTemplate: 'n132/arvo:{id}-vul' }]), 'arvo:42');

      expect(task.image).toBe('n132/arvo:42-vul');
      expect(await readdir(join(task.workspaceDir, 'src-vul'))).toEqual(['mimedec']);
      expect(task.errorReport).toContain('mimedec_qp_decode');
      expect(task.groundTruthPath).toBe(join(mirror, '42', 'patch.diff'));
      expect(await listOrNothing(cacheDir)).toEqual([]);
    });

    it('never lets a malformed id reach a path, even where a path trick would find a task', async () => {
      // arvo:../../etc would resolve to this complete task if the id were joined to the base unchecked.
      const base = join(root, 'mirror', 'a', 'b');
      await mkdir(base, { recursive: true });
      await cp(join(mirror, '42'), join(root, 'mirror', 'etc'), { recursive: true });
      const assets = service([{ name: 'arvo', base, imageTemplate: 'n132/arvo:{id}-vul' }]);

      expect(() => assets.parse('arvo:../../etc')).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID' }));
      expect(await listOrNothing(tmpDir)).toEqual([]);
      expect(lines).toEqual([]);
    });
  });

  describe('over HTTP', () => {
    let server: TaskFileServer;
    let arvo: TaskSourceConfig;

    beforeEach(async () => {
      const files = new Map<string, Buffer>();
      for (const [name, bytes] of await sampleFiles('1')) files.set(`14368/${name}`, bytes);
      files.set('666/error.txt', Buffer.from('ERROR: AddressSanitizer\n'));
      files.set('666/patch.diff', Buffer.from('--- a/x.c\n+++ b/x.c\n'));
      files.set('666/repo-vul.tar.gz', tarGz([{ type: 'SymbolicLink', path: 'src-vul/root', linkpath: '../../../..' }]));
      files.set('777/error.txt', Buffer.from('ERROR: AddressSanitizer\n'));
      files.set('777/repo-vul.tar.gz', files.get('14368/repo-vul.tar.gz') as Buffer);
      server = await TaskFileServer.start(files);
      server.redirect = true;
      arvo = { name: 'arvo', base: server.baseUrl, imageTemplate: 'n132/arvo:{id}-vul' };
    });

    afterEach(async () => {
      await server.close();
    });

    const downloads = (): number => server.requests.filter((path) => path.startsWith('/cdn/')).length;

    it('downloads a task once: a second task on the same id downloads nothing', async () => {
      const assets = service([arvo]);
      const first = await prepare(assets, 'arvo:14368');
      const second = await prepare(assets, '14368');

      expect(downloads()).toBe(3);
      expect(second.ref.taskId).toBe('arvo:14368');
      expect(second.workspaceDir).not.toBe(first.workspaceDir);
      expect((await stat(join(second.workspaceDir, 'src-vul', 'tlvkit'))).isDirectory()).toBe(true);
      expect(first.groundTruthPath.startsWith(cacheDir)).toBe(true);
      expect(await readFile(first.groundTruthPath, 'utf8')).toContain('diff --git');
      expect(await listTree(first.workspaceDir)).not.toContainEqual(expect.stringMatching(/patch/));
    });

    it('downloads once for two concurrent tasks on one id, and gives each its own workspace', async () => {
      server.trickle('14368/repo-vul.tar.gz', 1024, 5);
      const assets = service([arvo]);
      const [first, second] = await Promise.all([prepare(assets, 'arvo:14368'), prepare(assets, 'arvo:14368')]);

      expect(['error.txt', 'repo-vul.tar.gz', 'patch.diff'].map((name) => server.requestsFor(`14368/${name}`))).toEqual([1, 1, 1]);
      expect(first.workspaceDir).not.toBe(second.workspaceDir);
      expect(await listTree(first.workspaceDir)).toEqual(await listTree(second.workspaceDir));
    });

    it('reports a missing task as task not found after one request, and leaves no workspace', async () => {
      await expect(prepare(service([arvo]), 'arvo:404404')).rejects.toThrow(
        expect.objectContaining({ code: 'TASK_NOT_FOUND', message: expect.stringMatching(/^arvo:404404: task not found: no error.txt at http:/) }),
      );
      expect(server.requests).toEqual(['/data/arvo/404404/error.txt']);
      expect(await listOrNothing(tmpDir)).toEqual([]);
    });

    it('fails a task without ground truth, and leaves no workspace', async () => {
      await expect(prepare(service([arvo]), 'arvo:777')).rejects.toThrow(
        expect.objectContaining({ code: 'TASK_NOT_FOUND', message: expect.stringMatching(/^arvo:777: task not found: no patch.diff/) }),
      );
      expect(await listOrNothing(tmpDir)).toEqual([]);
    });

    it('fails a task whose archive escapes its tree, leaves no workspace, and does not keep the archive', async () => {
      const assets = service([arvo]);
      const attempt = (): Promise<PreparedTask> => prepare(assets, 'arvo:666');

      await expect(attempt()).rejects.toThrow(
        expect.objectContaining({
          code: 'BROKEN_ARCHIVE',
          message: expect.stringMatching(/^arvo:666: archive refused: symbolic link "src-vul\/root" -> "..\/..\/..\/.." points outside/),
        }),
      );
      expect(await listOrNothing(tmpDir)).toEqual([]);
      await expect(attempt()).rejects.toThrow(expect.objectContaining({ code: 'BROKEN_ARCHIVE' }));
      expect(server.requestsFor('666/repo-vul.tar.gz')).toBe(2);
    });

    it.each(['arvo:../../etc', 'arvo:a b', 'nosuch:1', 'arvo:..%2f..%2fetc', 'arvo:1?x=/../'])(
      'refuses %j before it reaches a URL, a path or an image name',
      async (task) => {
        const assets = service([arvo, { name: 'sample', base: SAMPLES_DIR, imageTemplate: 'arvo-rca-sample:{id}-vul' }]);

        expect(() => assets.parse(task)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^(INVALID_TASK_ID|UNKNOWN_TASK_SOURCE)$/) }));
        expect(server.requests).toEqual([]);
        expect(await listOrNothing(tmpDir)).toEqual([]);
        expect(await listOrNothing(cacheDir)).toEqual([]);
        expect(lines).toEqual([]);
      },
    );
  });
});
