import { Test } from '@nestjs/testing';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { AppConfigModule } from '@arvo-rca/agent-app';
import { GreenConfig } from '../green-config';
import { taskAssetsOptionsFrom } from './task-assets.options';
import { TaskAssetsModule } from './task-assets.module';
import { TaskAssetsService } from './task-assets.service';

const SAMPLES_DIR = join(__dirname, '..', '..', '..', '..', '..', 'samples');

describe('TaskAssetsModule', () => {
  const saved = { ...process.env };
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'task-assets-module-'));
  });

  afterEach(async () => {
    process.env = { ...saved };
    await rm(root, { recursive: true, force: true });
  });

  it('provides a TaskAssetsService configured from TMP_DIR, CACHE_DIR and SAMPLES_DIR', async () => {
    Object.assign(process.env, { TMP_DIR: join(root, 'tmp'), CACHE_DIR: join(root, 'cache'), SAMPLES_DIR });
    const moduleRef = await Test.createTestingModule({
      imports: [AppConfigModule.forRoot(GreenConfig, { ignoreEnvFile: true }), TaskAssetsModule],
    }).compile();
    try {
      const assets = moduleRef.get(TaskAssetsService);
      const task = await assets.prepare(assets.parse('sample:1'));

      expect(relative(join(root, 'tmp'), task.workspaceDir)).toMatch(/^sample_1-[0-9a-f-]{36}\/workspace$/);
      expect(await readdir(join(task.workspaceDir, 'src-vul'))).toEqual(['tlvkit']);
      await task.dispose();
    } finally {
      await moduleRef.close();
    }
  });

  it('refuses a task archive past ARCHIVE_MAX_ENTRIES as configured', async () => {
    Object.assign(process.env, { TMP_DIR: join(root, 'tmp'), CACHE_DIR: join(root, 'cache'), SAMPLES_DIR, ARCHIVE_MAX_ENTRIES: '3' });
    const moduleRef = await Test.createTestingModule({
      imports: [AppConfigModule.forRoot(GreenConfig, { ignoreEnvFile: true }), TaskAssetsModule],
    }).compile();
    try {
      const assets = moduleRef.get(TaskAssetsService);
      await expect(assets.prepare(assets.parse('sample:1'))).rejects.toThrow(
        expect.objectContaining({ code: 'ARCHIVE_TOO_LARGE', message: 'sample:1: archive refused: it holds more than 3 entries (ARCHIVE_MAX_ENTRIES)' }),
      );
      expect(await readdir(join(root, 'tmp'))).toEqual([]);
    } finally {
      await moduleRef.close();
    }
  });

  it('knows the arvo and sample sources, with the data set URL and the samples folder by default', () => {
    const options = taskAssetsOptionsFrom(new GreenConfig());

    expect(options.sources).toEqual([
      { name: 'arvo', base: 'https://huggingface.co/datasets/sunblaze-ucb/cybergym/resolve/main/data/arvo', imageTemplate: 'n132/arvo:{id}-vul' },
      { name: 'sample', base: './samples', imageTemplate: 'arvo-rca-sample:{id}-vul' },
    ]);
    expect(options.tmpDir).toBe('/tmp/rcabench');
    expect(options.archiveLimits).toEqual({ maxBytes: 8 * 1024 ** 3, maxEntries: 500_000, maxFileBytes: 2 * 1024 ** 3, maxCompressionRatio: 1000 });
    // Relative folders are taken from the working directory, as the agents are started from the repository root.
    expect(options.cacheDir).toBe(resolve(process.cwd(), '.cache/arvo-rca'));
  });
});
