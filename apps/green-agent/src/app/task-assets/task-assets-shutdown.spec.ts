import { Test } from '@nestjs/testing';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfigModule } from '@arvo-rca/agent-app';
import { GreenConfig } from '../green-config';
import { ArchiveExtractor } from './archive/archive-extractor';
import { ExtractionChild } from './archive/extraction-process.testing';
import { FAST_TMP, snapshot } from './archive/hostile-scene.testing';
import { HttpFetcher } from './download/http-fetcher';
import { manyFiles, writeTarGz } from './archive/tar-fixture.testing';
import { TaskAssetsModule } from './task-assets.module';
import { TaskAssetsService, type PreparedTask } from './task-assets.service';
import { TaskFileSystem } from './task-file-system';

/** Resolves once some task under `tmpDir` has a second folder of files written: its extraction is well under way. */
async function untilWriting(tmpDir: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 5))) {
    const tasks = await readdir(tmpDir).catch(() => []);
    if (tasks.some((task) => existsSync(join(tmpDir, task, 'workspace', 'src-vul', 'd001')))) return;
  }
  throw new Error('the extraction never began writing');
}

/** A local ARVO mirror with task 1, whose archive holds `entries` empty files. */
async function mirrorWith(root: string, entries: number): Promise<string> {
  const mirror = join(root, 'mirror');
  await mkdir(join(mirror, '1'), { recursive: true });
  await writeFile(join(mirror, '1', 'error.txt'), 'ERROR: AddressSanitizer: heap-buffer-overflow\n');
  await writeFile(join(mirror, '1', 'patch.diff'), '--- a/d000/f000000.c\n+++ b/d000/f000000.c\n');
  await writeTarGz(join(mirror, '1', 'repo-vul.tar.gz'), manyFiles('src-vul', entries));
  return mirror;
}

describe('TaskAssetsService at shutdown', () => {
  const saved = { ...process.env };
  let root: string;
  let tmpDir: string;
  let mirror: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'task-assets-shutdown-'));
    mirror = await mirrorWith(root, 20_000);
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  beforeEach(async () => {
    tmpDir = await mkdtemp(join(FAST_TMP, 'task-assets-shutdown-tasks-'));
  });

  afterEach(async () => {
    process.env = { ...saved };
    await rm(tmpDir, { recursive: true, force: true });
  });

  function service(): TaskAssetsService {
    const options = { tmpDir, cacheDir: join(root, 'cache'), sources: [{ name: 'arvo', base: mirror, imageTemplate: 'n132/arvo:{id}-vul' }] };
    return new TaskAssetsService(options, { http: new HttpFetcher(), files: new TaskFileSystem(), archives: new ArchiveExtractor() });
  }

  it('stops an extraction under way on abortExtractions(), and removes the task folder', async () => {
    const assets = service();
    const outside = await snapshot(root);
    const preparing = assets.prepare(assets.parse('arvo:1'));
    preparing.catch(() => undefined);
    await untilWriting(tmpDir);

    const abortedAt = Date.now();
    assets.abortExtractions();

    await expect(preparing).rejects.toThrow(
      expect.objectContaining({ code: 'EXTRACTION_ABORTED', message: 'arvo:1: extraction stopped: the green agent is shutting down' }),
    );
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    expect(await readdir(tmpDir)).toEqual([]);
    expect(await snapshot(root)).toEqual(outside);
  }, 60_000);

  it('prepares no task once extractions are aborted, and leaves no folder', async () => {
    const assets = service();
    assets.abortExtractions();

    await expect(assets.prepare(assets.parse('arvo:1'))).rejects.toThrow(expect.objectContaining({ code: 'EXTRACTION_ABORTED' }));
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('stops it when the Nest application closes, the way SIGTERM closes it', async () => {
    Object.assign(process.env, { TMP_DIR: tmpDir, CACHE_DIR: join(root, 'cache'), ARVO_DATA_URL: mirror });
    const moduleRef = await Test.createTestingModule({
      imports: [AppConfigModule.forRoot(GreenConfig, { ignoreEnvFile: true }), TaskAssetsModule],
    }).compile();
    const outside = await snapshot(root);
    const assets = moduleRef.get(TaskAssetsService);
    const preparing: Promise<PreparedTask> = assets.prepare(assets.parse('arvo:1'));
    preparing.catch(() => undefined);
    await untilWriting(tmpDir);

    await moduleRef.close();

    await expect(preparing).rejects.toThrow(expect.objectContaining({ code: 'EXTRACTION_ABORTED' }));
    expect(await readdir(tmpDir)).toEqual([]);
    expect(await snapshot(root)).toEqual(outside);
  }, 60_000);
});

describe('A green agent process getting SIGTERM mid-extraction', () => {
  let root: string;
  let tmpDir: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'extraction-sigterm-'));
    tmpDir = await mkdtemp(join(FAST_TMP, 'extraction-sigterm-tasks-'));
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(tmpDir, { recursive: true, force: true });
  });

  it('stops the extraction of 200,000 entries at once, removes the task folder and exits', async () => {
    const mirror = await mirrorWith(root, 200_000);
    const outside = await snapshot(root);
    const child = new ExtractionChild(['prepare', 'arvo:1'], { TMP_DIR: tmpDir, CACHE_DIR: join(root, 'cache'), ARVO_DATA_URL: mirror });
    await untilWriting(tmpDir);

    const signalledAt = Date.now();
    child.process.kill('SIGTERM');

    expect(await child.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(Date.now() - signalledAt).toBeLessThan(3_000);
    expect(await child.output()).toEqual(['preparing', 'failed EXTRACTION_ABORTED']);
    expect(await readdir(tmpDir)).toEqual([]);
    expect(await snapshot(root)).toEqual(outside);
  }, 90_000);
});
