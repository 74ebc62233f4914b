import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { extract } from 'tar';
import { createDockerClient } from '@arvo-rca/arvo-docker';
import { listSampleIds, readSampleManifest, type SampleManifest } from './sample-images';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { normalizeReport, reproduce, SAMPLES_DIR } from './sample-tasks';

const ids = readdirSync(SAMPLES_DIR).filter((name) => /^\d+$/.test(name));
let samples: SampleManifest[];

beforeAll(async () => {
  samples = await Promise.all((await listSampleIds(SAMPLES_DIR)).map((id) => readSampleManifest(SAMPLES_DIR, id)));
});

function filesUnder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) readdirSync(path).forEach((name) => visit(join(path, name)));
    else files.set(relative(dir, path), readFileSync(path));
  };
  visit(dir);
  return files;
}

async function withTempDir(work: (dir: string) => unknown): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'arvo-rca-sample-'));
  try {
    await work(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the bundled sample tasks', () => {
  it('are at least five, covering the five bug classes', () => {
    expect(samples.length).toBeGreaterThanOrEqual(5);
    const classes = samples.map((sample) => sample.bugClass).join('\n');
    for (const bugClass of ['heap-buffer-overflow READ', 'heap-buffer-overflow WRITE', 'stack-buffer-overflow', 'heap-use-after-free', 'integer-overflow']) {
      expect(classes).toContain(bugClass);
    }
  });

  it('have their root cause outside the crashing function in at least three of them', () => {
    const elsewhere = samples.filter((sample) => sample.rootCause.every((cause) => cause.function !== sample.crashFunction));
    expect(elsewhere.length).toBeGreaterThanOrEqual(3);
  });

  describe.each(ids)('sample %s', (id) => {
    const dir = join(SAMPLES_DIR, id);
    const sample = (): SampleManifest => samples.find((candidate) => candidate.id === id) as SampleManifest;

    it('ships the CyberGym files', () => {
      for (const file of ['repo-vul.tar.gz', 'error.txt', 'patch.diff', 'poc', 'description.txt']) {
        expect(statSync(join(dir, file)).size).toBeGreaterThan(0);
      }
    });

    it('archives exactly its source tree as src-vul/<project>', async () => {
      await withTempDir(async (out) => {
        await extract({ file: join(dir, 'repo-vul.tar.gz'), cwd: out });
        expect(readdirSync(out)).toEqual(['src-vul']);
        expect(filesUnder(join(out, 'src-vul'))).toEqual(filesUnder(join(dir, 'source')));
      });
    });

    it('has a patch that applies to the vulnerable tree and changes the root-cause files', async () => {
      await withTempDir((out) => {
        cpSync(join(dir, 'source', sample().project), out, { recursive: true });
        // Outside any repository, so that git checks the paths instead of skipping them.
        execFileSync('git', ['apply', '--check', '--verbose', join(dir, 'patch.diff')], { cwd: out, stdio: 'pipe' });
      });
      const patched = [...readFileSync(join(dir, 'patch.diff'), 'utf8').matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]);
      for (const cause of sample().rootCause) expect(patched).toContain(cause.file);
    });

    it('has a report whose top in-project frame is the declared crash function', () => {
      const report = readFileSync(join(dir, 'error.txt'), 'utf8');
      const frame = report.match(new RegExp(`#\\d+ 0x[0-9a-f]+ in (\\w+) /src/${sample().project}/`));
      expect(frame?.[1]).toBe(sample().crashFunction);
    });
  });
});

describe('normalizeReport', () => {
  it('blanks pids, addresses and the shadow memory rows, and keeps the rest', () => {
    const report = [
      '==17==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffd7bd3c9f0 at pc 0x55993d249e61',
      '    #0 0x55993d249e60 in ini_unescape /src/iniconf/src/value.c:120',
      'Shadow bytes around the buggy address:',
      '  0x1000330e33f0: f2 f2 f2 f2 00 00 00 f2 f2 f2 f2 f2 00 00 00 00',
      '=>0x1000330e3440: 00 00 00 00 00 00 00 00 00 00 00 00[f3]f3 f3 f3',
      '  Partially addressable: 01 02 03 04 05 06 07 ',
    ].join('\n');

    expect(normalizeReport(report)).toBe(
      [
        '==PID==ERROR: AddressSanitizer: stack-buffer-overflow on address 0xADDR at pc 0xADDR',
        '    #0 0xADDR in ini_unescape /src/iniconf/src/value.c:120',
        'Shadow bytes around the buggy address:',
        '<shadow row>',
        '<shadow row>',
        '  Partially addressable: 01 02 03 04 05 06 07',
      ].join('\n'),
    );
  });
});

describeWithDocker('the sample images', () => {
  const docker = createDockerClient();

  it.each(ids)('sample %s: reproduce the checked-in report exactly, addresses and pids aside', async (id) => {
    const { exitCode, report } = await reproduce(docker, await readSampleManifest(SAMPLES_DIR, id));

    expect(exitCode).not.toBe(0);
    expect(normalizeReport(report)).toBe(normalizeReport(readFileSync(join(SAMPLES_DIR, id, 'error.txt'), 'utf8')));
  });
});
